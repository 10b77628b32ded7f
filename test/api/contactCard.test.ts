/**
 * The contact card block (`type: "contact"`): the published page links its vCard, contact.vcf
 * (vCard 4.0, RFC 6350), written with the page and read here by ical.js, a vCard parser of its
 * own; the Markdown twin lists the same fields; one card a page; every field checked.
 */
import { expect } from 'chai';
import ICAL from 'ical.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { alertText, signedUp } from '../helpers/person.js';

/** A contact block as an agent sends it, with every field filled unless `overrides` says otherwise. */
function contactBlock(overrides: Record<string, unknown> = {}) {
  return {
    type: 'contact',
    name: 'Ana Lima',
    organisation: 'Lima Ceramics',
    title: 'Potter',
    phones: ['+351 912 345 678', '(21) 555-0100'],
    emails: ['ana@example.com', 'studio@example.com'],
    website: 'https://lima-ceramics.pt/',
    address: 'Rua Nova 1, 1000 Lisboa',
    ...overrides,
  };
}

async function pageWith(blocks: unknown[]) {
  const a = await createAgentAccount();
  const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
  await app().services.publisher.settled();
  return { ...a, res };
}

describe('the contact card block', () => {
  it('publishes a vCard 4.0 with every field, linked from the page as "Save contact", that a vCard parser reads', async () => {
    const { page, res } = await pageWith([{ ...contactBlock(), id: 'card', order: 0, visible: true }]);
    expect(res.status, res.text).to.equal(200);
    const html = (await pageRequest(page.username, '/')).text;
    expect(html).to.match(/<a class="card" href="[^"]*\/contact\.vcf"[^>]* download="[^"]+\.vcf" type="text\/vcard">/);
    expect(html).to.include('Save contact').and.include('Potter · Lima Ceramics');

    const file = await pageRequest(page.username, '/contact.vcf');
    expect(file.status).to.equal(200);
    expect(file.headers['content-type']).to.equal('text/vcard; charset=utf-8');
    const card = new ICAL.Component(ICAL.parse(file.text));
    expect(card.getFirstPropertyValue('version')).to.equal('4.0');
    expect(card.getFirstPropertyValue('fn')).to.equal('Ana Lima');
    expect(card.getFirstPropertyValue('org')).to.equal('Lima Ceramics');
    expect(card.getFirstPropertyValue('title')).to.equal('Potter');
    expect(card.getAllProperties('tel').map((p) => p.getFirstValue())).to.deep.equal([
      'tel:+351912345678',
      'tel:215550100',
    ]);
    expect(card.getAllProperties('email').map((p) => p.getFirstValue())).to.deep.equal([
      'ana@example.com',
      'studio@example.com',
    ]);
    expect(card.getFirstPropertyValue('url')).to.equal('https://lima-ceramics.pt/');
    expect(card.getFirstPropertyValue('adr')).to.deep.equal(['', '', 'Rua Nova 1, 1000 Lisboa', '', '', '', '']);

    const md = (await pageRequest(page.username, '/page.md')).text;
    expect(md).to.include('## Contact').and.include('**Ana Lima** — Potter · Lima Ceramics');
    expect(md).to.include('Phone: [+351 912 345 678](tel:+351912345678)');
    expect(md).to.include('E-mail: [studio@example.com](mailto:studio@example.com)');
    expect(md).to.include('Website: <https://lima-ceramics.pt/>').and.include('Address: Rua Nova 1, 1000 Lisboa');
    expect(md).to.match(/\[Save contact \(vCard\)\]\(\S+\/contact\.vcf\)/);
  });

  it('takes its vCard down when the card is removed or hidden', async () => {
    const { key, page } = await pageWith([{ ...contactBlock(), id: 'card', order: 0, visible: true }]);
    expect((await pageRequest(page.username, '/contact.vcf')).status).to.equal(200);
    await api.patch(
      `/api/profiles/${page.id}`,
      { blocks: [{ ...contactBlock(), id: 'card', order: 0, visible: false }] },
      { key },
    );
    await app().services.publisher.settled();
    expect((await pageRequest(page.username, '/contact.vcf')).status).to.equal(404);
    expect((await pageRequest(page.username, '/')).text).not.to.include('contact.vcf');
  });

  it('answers 404 for contact.vcf on a page that never had a card', async () => {
    const { page } = await pageWith([]);
    expect((await pageRequest(page.username, '/contact.vcf')).status).to.equal(404);
  });

  it('refuses a second card on a page, naming the block, and changes nothing', async () => {
    const { res, key, page } = await pageWith([
      contactBlock({ id: 'a', order: 0, visible: true }),
      contactBlock({ id: 'b', order: 1, visible: true }),
    ]);
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'blocks[1].type' });
    const kept = (await api.get(`/api/profiles/${page.id}`, { key })).body.blocks as { type: string }[];
    expect(kept.map((b) => b.type)).to.deep.equal(['link']);
  });

  it('checks every field: a phone that is no number, an e-mail that is none, a website that is not http(s), six phones', async () => {
    for (const [overrides, field] of [
      [{ phones: ['call me'] }, 'blocks[0].phones[0]'],
      [{ emails: ['ana at example'] }, 'blocks[0].emails[0]'],
      [{ website: 'javascript:alert(1)' }, 'blocks[0].website'],
      [{ phones: ['1111', '2222', '3333', '4444', '5555', '6666'] }, 'blocks[0].phones'],
      [{ name: '' }, 'blocks[0].name'],
    ] as const) {
      const { res } = await pageWith([{ ...contactBlock(overrides), id: 'card', order: 0, visible: true }]);
      expect(res.status, JSON.stringify(overrides)).to.equal(400);
      expect(res.body.field, JSON.stringify(overrides)).to.equal(field);
    }
  });

  it('is made in the editor from its form: one phone and one e-mail a line', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    const made = await person.post('/dashboard/pages', { username: uniqueName('card') });
    const editor = made.location!.split('?')[0];
    await person.get(editor);
    const version = /name="version" value="(\d+)"/.exec((await person.get(editor)).html)?.[1] ?? '1';
    const added = await person.post(`${editor}/blocks`, {
      type: 'contact',
      version,
      name: 'Ana Lima',
      title: 'Potter',
      organisation: '',
      phones: '+351 912 345 678\n\n(21) 555-0100\n',
      emails: 'ana@example.com',
      website: 'lima-ceramics.pt',
      address: '',
    });
    expect(added.status, alertText(added.html)).to.equal(303);
    const html = (await person.get(editor)).html;
    expect(html).to.include('Contact card').and.include('Ana Lima');
    const bad = await person.post(`${editor}/blocks`, {
      type: 'contact',
      version: String(Number(version) + 1),
      name: 'Ana',
      phones: 'call me',
    });
    expect(bad.status).to.equal(400);
    expect(alertText(bad.html)).to.include('Phone numbers');
  });
});
