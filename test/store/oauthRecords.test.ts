/**
 * platform/store/oauthRecords.ts: the authorization server's records, stored by the hash of their id;
 * a grant's revocation takes its codes and tokens, the account's removal takes its grants, and
 * housekeeping drops what expired.
 */
import { expect } from 'chai';
import { oauthRecordsRepo } from '../../platform/store/oauthRecords.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const HOUR = 3_600_000;

async function grantWithToken(accountId: string, grantId: string, token: string) {
  const repo = oauthRecordsRepo(app().services.db);
  const now = new Date();
  await repo.upsert('Grant', grantId, { accountId, clientId: 'c1' }, { grantId, accountId, now });
  await repo.upsert(
    'AccessToken',
    token,
    { grantId, accountId },
    { grantId, accountId, now, expiresAt: new Date(+now + HOUR) },
  );
  return repo;
}

describe('store/oauthRecords', () => {
  it('finds a record by its id, which is kept only hashed', async () => {
    const { accountId } = await createAgentAccount();
    const repo = await grantWithToken(accountId, 'grant-a', 'token-a');
    expect((await repo.find('AccessToken', 'token-a', new Date()))?.payload.grantId).to.equal('grant-a');
    const clear = await app().services.db.query("SELECT 1 FROM oauth_records WHERE id_hash = 'token-a'");
    expect(clear).to.deep.equal([]);
  });

  it('takes every token of a grant with it when the grant is revoked by its account', async () => {
    const { accountId } = await createAgentAccount();
    const other = await createAgentAccount();
    const repo = await grantWithToken(accountId, 'grant-b', 'token-b');
    expect(await repo.revokeGrant(other.accountId, 'grant-b')).to.equal(false);
    expect(await repo.find('AccessToken', 'token-b', new Date())).to.not.equal(undefined);
    expect(await repo.revokeGrant(accountId, 'grant-b')).to.equal(true);
    expect(await repo.find('AccessToken', 'token-b', new Date())).to.equal(undefined);
    expect(await repo.listGrants(accountId, new Date())).to.deep.equal([]);
  });

  it('does not find an expired record, and housekeeping forgets it', async () => {
    const { accountId } = await createAgentAccount();
    const repo = await grantWithToken(accountId, 'grant-c', 'token-c');
    const later = new Date(Date.now() + 2 * HOUR);
    expect(await repo.find('AccessToken', 'token-c', later)).to.equal(undefined);
    await repo.forgetExpired(later);
    expect(await repo.find('AccessToken', 'token-c', new Date())).to.equal(undefined);
    expect(await repo.listGrants(accountId, new Date())).to.have.length(1);
  });

  it('lets the account’s grants go with the account', async () => {
    const { accountId } = await createAgentAccount();
    const repo = await grantWithToken(accountId, 'grant-d', 'token-d');
    await app().services.db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    expect(await repo.find('Grant', 'grant-d', new Date())).to.equal(undefined);
    expect(await repo.find('AccessToken', 'token-d', new Date())).to.equal(undefined);
  });

  it('forgets clients no account let in, and keeps those that hold a grant', async () => {
    const { accountId } = await createAgentAccount();
    const repo = oauthRecordsRepo(app().services.db);
    const then = new Date(Date.now() - 2 * 86_400_000);
    await repo.upsert('Client', 'client-unused', { client_id: 'client-unused' }, { now: then });
    await repo.upsert('Client', 'client-used', { client_id: 'client-used' }, { now: then });
    await repo.upsert(
      'Grant',
      'grant-e',
      { accountId, clientId: 'client-used' },
      { grantId: 'grant-e', accountId, now: then },
    );
    await repo.forgetUnusedClients(new Date(Date.now() - 86_400_000));
    expect(await repo.find('Client', 'client-unused', new Date())).to.equal(undefined);
    expect(await repo.find('Client', 'client-used', new Date())).to.not.equal(undefined);
  });
});
