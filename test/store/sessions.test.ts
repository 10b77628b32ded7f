/**
 * platform/store/sessions.ts, as the account screen reads it: an account's live sessions with the
 * country each log-in came from (never its address), the most recently seen first; one revoked
 * only by its own account; last seen written at most once a minute.
 */
import { expect } from 'chai';
import { newId } from '../../core/secrets.js';
import { sessionsRepo } from '../../platform/store/sessions.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const MINUTE = 60_000;

async function session(accountId: string, o: { now: Date; country?: string; expiresAt?: Date }) {
  const id = newId();
  await sessionsRepo(app().services.db).insert({
    id,
    tokenHash: `hash-${id}`,
    accountId,
    csrf: 'csrf',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    country: o.country ?? 'DE',
    now: o.now,
    expiresAt: o.expiresAt ?? new Date(o.now.getTime() + 30 * 1440 * MINUTE),
  });
  return id;
}

describe('store/sessions', () => {
  it('lists the account’s live sessions with their country, the most recently seen first', async () => {
    const { accountId } = await createAgentAccount();
    const other = await createAgentAccount();
    const now = new Date();
    const older = await session(accountId, { now: new Date(now.getTime() - 10 * MINUTE), country: 'FR' });
    const newer = await session(accountId, { now: new Date(now.getTime() - 5 * MINUTE) });
    const expired = await session(accountId, { now: new Date(now.getTime() - 9 * MINUTE), expiresAt: now });
    const revoked = await session(accountId, { now });
    await session(other.accountId, { now });
    const repo = sessionsRepo(app().services.db);
    expect(await repo.revokeOne(accountId, revoked, now)).to.equal(true);
    await repo.touch(older, now);

    const live = await repo.listLive(accountId, now);
    expect(live.map((x) => x.id)).to.deep.equal([older, newer]);
    expect(live.map((x) => x.country)).to.deep.equal(['FR', 'DE']);
    expect(live.map((x) => x.id)).to.not.include(expired);
  });

  it('revokes a session only for its own account, and only once', async () => {
    const { accountId } = await createAgentAccount();
    const other = await createAgentAccount();
    const now = new Date();
    const id = await session(accountId, { now });
    const repo = sessionsRepo(app().services.db);
    expect(await repo.revokeOne(other.accountId, id, now)).to.equal(false);
    expect((await repo.listLive(accountId, now)).map((x) => x.id)).to.deep.equal([id]);
    expect(await repo.revokeOne(accountId, id, now)).to.equal(true);
    expect(await repo.revokeOne(accountId, id, now)).to.equal(false);
    expect(await repo.listLive(accountId, now)).to.deep.equal([]);
  });

  it('writes last seen at most once a minute', async () => {
    const { accountId } = await createAgentAccount();
    const start = new Date(Date.now() - 10 * MINUTE);
    const id = await session(accountId, { now: start });
    const repo = sessionsRepo(app().services.db);
    const seen = async () => (await repo.listLive(accountId, start)).find((x) => x.id === id)?.lastSeenAt?.getTime();
    await repo.touch(id, start);
    expect(await seen()).to.equal(start.getTime());
    await repo.touch(id, new Date(start.getTime() + 30_000));
    expect(await seen()).to.equal(start.getTime());
    await repo.touch(id, new Date(start.getTime() + 2 * MINUTE));
    expect(await seen()).to.equal(start.getTime() + 2 * MINUTE);
  });

  it('keeps no address: the table has a country and no column for one', async () => {
    const columns = await app().services.db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' AND table_schema = current_schema()",
    );
    const names = columns.map((c) => c.column_name);
    expect(names).to.include('country');
    expect(names.filter((n) => /addr|^ip/.test(n))).to.deep.equal([]);
  });
});
