/** The proposals screens (/dashboard/pages/{id}/proposals…): review, decline with a note, and what is not there. */
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { alertText, keyOf, signedUp } from '../helpers/person.js';

/** A person with a page and a contributor's proposal on it. */
async function withProposal() {
  const person = await signedUp();
  const owner = (await keyOf(person, { label: 'owner' })).key;
  const contributor = (await keyOf(person, { label: 'agent', role: 'contributor' })).key;
  const page = (await api.post('/api/profiles', { username: uniqueName('prop') }, { key: owner })).body;
  const proposal = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Maybe this' }, { key: contributor })).body;
  return { person, owner, contributor, page, proposal };
}

describe('POST /dashboard/pages/{id}/proposals/{proposal}/decline', () => {
  it('declines with the note, keeps the page, and says so', async () => {
    const { person, owner, page, proposal } = await withProposal();
    const path = `/dashboard/pages/${page.id}/proposals/${proposal.id}`;
    expect((await person.get(path)).html).to.include('Changed the bio');
    const res = await person.post(`${path}/decline`, { note: 'Not now, thanks.' });
    expect(res.status).to.equal(303);
    expect(alertText((await person.get(res.location!)).html)).to.include('Declined');
    const seen = await api.get(`/api/profiles/${page.id}/proposals/${proposal.id}`, { key: owner });
    expect(seen.body).to.include({ status: 'declined', note: 'Not now, thanks.', decidedBy: 'the dashboard' });
    expect((await api.get(`/api/profiles/${page.id}`, { key: owner })).body.bio).to.equal('');
    const again = await person.post(`${path}/approve`, {});
    expect(again.status).to.equal(409);
    expect(alertText(again.html)).to.match(/already approved or declined/);
  });

  it("answers 404 for a proposal that is not the page's, and for another account's page", async () => {
    const a = await withProposal();
    const b = await withProposal();
    expect((await a.person.get(`/dashboard/pages/${a.page.id}/proposals/${b.proposal.id}`)).status).to.equal(404);
    expect((await a.person.get(`/dashboard/pages/${b.page.id}/proposals/${b.proposal.id}`)).status).to.equal(404);
    expect((await a.person.get(`/dashboard/pages/${a.page.id}/proposals/${b.proposal.id}/live`)).status).to.equal(404);
  });
});
