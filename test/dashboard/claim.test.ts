import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

const claimPath = (claimUrl: string) => new URL(claimUrl).pathname;

describe('dashboard claim: /claim/<token>', () => {
  it('shows the pages being claimed, claims the account, logs the person in; the token is claimed', async () => {
    const agent = await createAgentAccount({ page: { displayName: 'Made By A Bot' } });
    const person = new Person();
    const form = await person.get(claimPath(agent.claimUrl));
    expect(form.status).to.equal(200);
    expect(form.html).to.include('Made By A Bot').and.include(agent.page.url);
    const email = `${uniqueName()}@example.com`;
    const res = await person.post(claimPath(agent.claimUrl), { email, password: 'correct horse battery' });
    expect(res.status).to.equal(303);
    expect(res.location).to.match(/^\/dashboard/);
    expect((await person.get('/dashboard')).html).to.include(agent.page.username);
    const token = claimPath(agent.claimUrl).split('/').pop();
    expect((await api.get(`/api/claim/${token}`)).body.status).to.equal('claimed');
    // The agent's key keeps working, and the account now has an owner.
    const me = await api.get('/api/account', { key: agent.key });
    expect(me.body).to.include({ email, provisional: false });
  });

  it('answers claim_invalid for an unknown or malformed token', async () => {
    const person = new Person();
    for (const token of ['x'.repeat(43), 'short', '%3Cscript%3E']) {
      const res = await person.get(`/claim/${token}`);
      expect(res.status, token).to.equal(404);
      expect(alertText(res.html)).to.include('not valid');
    }
  });

  it('answers claim_expired after seven days', async () => {
    const agent = await createAgentAccount();
    app().clock.set(new Date(Date.now() + 8 * 86_400_000));
    const res = await new Person().get(claimPath(agent.claimUrl));
    expect(res.status).to.equal(409);
    expect(alertText(res.html)).to.include('expired');
  });

  it('answers claim_used for a used link and already_claimed for another link of a claimed account', async () => {
    const agent = await createAgentAccount();
    const second = await api.post('/api/agent/claim-link', {}, { key: agent.key });
    const person = new Person();
    await person.get(claimPath(agent.claimUrl));
    await person.post(claimPath(agent.claimUrl), {
      email: `${uniqueName()}@example.com`,
      password: 'correct horse battery',
    });
    const used = await new Person().get(claimPath(agent.claimUrl));
    expect(used.status).to.equal(409);
    expect(alertText(used.html)).to.include('already been claimed');
    const other = await new Person().get(claimPath(second.body.claimUrl));
    expect(other.status).to.equal(409);
    expect(alertText(other.html)).to.include('already has an e-mail and password');
  });

  it('answers email_taken and leaves the account provisional', async () => {
    const owner = await signedUp();
    const agent = await createAgentAccount();
    const person = new Person();
    await person.get(claimPath(agent.claimUrl));
    const res = await person.post(claimPath(agent.claimUrl), { email: owner.email, password: 'correct horse battery' });
    expect(res.status).to.equal(409);
    expect(alertText(res.html)).to.include('e-mail exists');
    expect((await api.get('/api/account', { key: agent.key })).body.provisional).to.equal(true);
  });
});
