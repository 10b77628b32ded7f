/**
 * oidc-provider's persistence over platform/store/oauthRecords.ts (PGlite or PostgreSQL). The library
 * calls one adapter per model (`Client`, `Grant`, `AccessToken`, `RefreshToken`, …); each record
 * is stored by the SHA-256 of its id, and a grant's codes and tokens carry its id so that
 * revoking the grant removes them all at once.
 *
 * A refresh token used again within REFRESH_REUSE_GRACE_MS of its first use is taken as unused:
 * two processes of one client that refresh at once (MCP clients do) each get a new token and the
 * grant lives on. Used again later, it is what a stolen token looks like: the library revokes the
 * grant, as OAuth 2.1 asks of a rotated refresh token.
 */
import type { Services } from '../../../core/services.js';
import { type OAuthPayload, oauthRecordsRepo } from '../../store/oauthRecords.js';

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** How long after its first use a rotated refresh token still refreshes (a concurrent second refresh). */
const REFRESH_REUSE_GRACE_MS = 30_000;
const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined);

export function storeAdapter(s: Services) {
  const repo = oauthRecordsRepo(s.db);
  return class StoreAdapter {
    constructor(readonly kind: string) {}

    async upsert(id: string, payload: OAuthPayload, expiresIn?: number) {
      const now = s.now();
      // The id is the token: it is not kept in the payload, only as the row's hash. (A
      // provider session is found by its uid too, which must give its id back: it keeps it.)
      const { jti: _, ...rest } = payload;
      if (this.kind === 'Session') rest.jti = payload.jti;
      await repo.upsert(this.kind, id, rest, {
        grantId: this.kind === 'Grant' ? id : str(payload.grantId),
        // Grants, their codes and tokens, and sessions go with the account.
        accountId: str(payload.accountId),
        uid: str(payload.uid),
        now,
        expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : undefined,
      });
    }

    async find(id: string) {
      const now = s.now();
      const row = await repo.find(this.kind, id, now);
      if (!row) return undefined;
      const inGrace =
        this.kind === 'RefreshToken' &&
        row.consumedAt !== null &&
        now.getTime() - row.consumedAt.getTime() <= REFRESH_REUSE_GRACE_MS;
      const consumed = row.consumedAt && !inGrace ? { consumed: epoch(row.consumedAt) } : {};
      return { ...row.payload, jti: id, ...consumed };
    }

    async findByUid(uid: string) {
      const row = await repo.findByUid(this.kind, uid, s.now());
      return row ? { ...row.payload } : undefined;
    }

    async findByUserCode() {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string) {
      await repo.consume(this.kind, id, s.now());
    }

    async destroy(id: string) {
      await repo.destroy(this.kind, id);
    }

    async revokeByGrantId(grantId: string) {
      await repo.destroyByGrant(grantId, { kind: this.kind });
    }
  };
}
