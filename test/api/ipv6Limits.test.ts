/**
 * The per-address limits over IPv6 (core/rules/addressGroup.ts): a single host is commonly given a
 * whole /64, so every address of a /64 counts as one client, and the limits on making accounts
 * count a whole /48 as one. Addresses come from the documentation range 2001:db8::/32, a /48 of
 * its own for each test.
 */
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { buildCreateRequest, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { Person, signedUp } from '../helpers/person.js';

let next = Math.floor(Math.random() * 0xfff0);
/** A /48 no other test uses: `2001:db8:<n>`. */
function fresh48(): string {
  return `2001:db8:${(next++ % 0xffff).toString(16)}`;
}

/** The start of the next whole hour: every window (minute, hour, day) starts fresh there or earlier. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('per-address limits over IPv6', function () {
  // The log-in test checks eleven passwords with scrypt.
  this.timeout(60_000);

  it('counts every address of a /64 as one client: after 40 username checks in a minute, any address of it gets 429', async () => {
    app().clock.set(startOfNextHour());
    const net = `${fresh48()}:1`;
    for (let i = 1; i <= 40; i++) {
      const res = await api.get(`/api/username/check?u=${uniqueName('v6')}`, from(`${net}::${i.toString(16)}`));
      expect(res.status, `check ${i}`).to.equal(200);
    }
    const refused = await api.get(`/api/username/check?u=${uniqueName('v6')}`, from(`${net}:ab:cd:ef:1`));
    expect(refused.status).to.equal(429);
    expect(refused.body.code).to.equal('rate_limited');
    // The next /64 is another client.
    const beside = await api.get(`/api/username/check?u=${uniqueName('v6')}`, from(`${net.slice(0, -1)}2::1`));
    expect(beside.status).to.equal(200);
  });

  it('counts a /48 as one client for pages made without a key: 10 a day, then 429 from any /64 of it', async () => {
    app().clock.set(startOfNextHour());
    const site = fresh48();
    for (let i = 1; i <= 10; i++) {
      const res = await api.post('/api/agent/pages', buildCreateRequest(), from(`${site}:${i.toString(16)}::1`));
      expect(res.status, `create ${i}`).to.equal(201);
    }
    const refused = await api.post('/api/agent/pages', buildCreateRequest(), from(`${site}:ffff::1`));
    expect(refused.status).to.equal(429);
    expect(refused.body.code).to.equal('rate_limited');
    const elsewhere = await api.post('/api/agent/pages', buildCreateRequest(), from(`${fresh48()}::1`));
    expect(elsewhere.status).to.equal(201);
  });

  it('counts wrong log-ins from every address of a /64 together: 10, then 429', async () => {
    app().clock.set(startOfNextHour());
    const owner = await signedUp();
    const net = `${fresh48()}:7`;
    const tryFrom = async (n: number, password: string) => {
      const person = new Person(`${net}::${n.toString(16)}`);
      await person.get('/login');
      return (await person.post('/login', { email: owner.email, password })).status;
    };
    for (let i = 1; i <= 10; i++) expect(await tryFrom(i, `wrong ${i}`), `try ${i}`).to.equal(403);
    expect(await tryFrom(11, 'wrong 11')).to.equal(429);
  });
});
