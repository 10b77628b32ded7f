/**
 * Every screen of the dashboard and the site as the Nu Html Checker reads it: no error, for a
 * person with a page of several block types (@slow: starts Java).
 */
import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { uniqueName } from '../helpers/factories.js';
import { nuErrors } from '../helpers/nuChecker.js';
import { Person, signedUp } from '../helpers/person.js';

describe('dashboard and site HTML validity (Nu Html Checker) @slow', function () {
  this.timeout(180_000);

  it('has no errors on any screen, signed out and signed in', async () => {
    const visitor = new Person();
    const screens = new Map<string, string>();
    const take = async (who: Person, path: string, name: string) => {
      const res = await who.get(path);
      expect([res.status, res.headers.get('content-type')], path).to.deep.equal([200, 'text/html; charset=utf-8']);
      screens.set(`${name}.html`, res.html);
    };
    for (const [path, name] of [
      ['/', 'home'],
      ['/login', 'login'],
      ['/signup', 'signup'],
      ['/password/forgot', 'forgot'],
    ]) {
      await take(visitor, path, name);
    }
    await take(visitor, `/examples/${TEMPLATE_IDS[0]}`, 'example');

    const person = await signedUp();
    const made = await person.post('/dashboard/pages', { username: uniqueName('valid') });
    const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(made.location ?? '')?.[1];
    expect(id, made.location ?? '').to.be.a('string');
    const blocks: Record<string, string>[] = [
      { type: 'link', label: 'Shop', url: 'https://shop.example.com/' },
      { type: 'text', content: 'Listen', variant: 'heading' },
      { type: 'socialRow', items: 'https://github.com/ada-example\nhttps://mastodon.social/@ada' },
    ];
    for (const block of blocks) {
      expect((await person.post(`/dashboard/pages/${id}/blocks`, block)).status, block.type).to.equal(303);
    }
    for (const [path, name] of [
      ['/dashboard', 'pages'],
      [`/dashboard/pages/${id}`, 'editor'],
      [`/dashboard/pages/${id}/stats`, 'stats'],
      [`/dashboard/pages/${id}/history`, 'history'],
      [`/dashboard/pages/${id}/domain`, 'domain'],
      ['/dashboard/keys', 'keys'],
      ['/dashboard/webhooks', 'webhooks'],
      ['/dashboard/account', 'account'],
      ['/dashboard/account/delete', 'delete-account'],
    ]) {
      await take(person, path, name);
    }
    const messages = await nuErrors(screens);
    expect(messages, messages.slice(0, 30).join('\n')).to.deep.equal([]);
  });
});
