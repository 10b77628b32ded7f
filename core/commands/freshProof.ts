/**
 * Proving again who one is, before an irreversible action on a session whose proof is no longer
 * fresh (core/rules/freshProof.ts). The proof asked is what the last step of a log-in asks: the
 * password for an account without a second step; for one with a second step, a code from the
 * authenticator app or a recovery code (when it has the app on) or a passkey, never the password
 * alone. A passkey is always enough, as it is at log-in; for an account made with a passkey
 * (no password, no app) it is the only proof. Wrong proofs count against the same
 * limits as wrong passwords and codes do.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { AppError } from '../errors.js';
import type { Limiter } from '../limiter.js';
import { verifyPassword } from '../secrets.js';
import type { Services } from '../services.js';
import { verifyPasskey } from './passkeys.js';
import { checkCode, secondFactors } from './twoFactor.js';

/** A proof as a form sends it: one of a password, a code, or a passkey's answer to a kept challenge. */
export interface Proof {
  password?: string;
  code?: string;
  passkey?: { challengeId: unknown; response: unknown };
}

/** What the account may prove itself with. */
export async function proofKinds(s: Services, accountId: string) {
  const factors = await secondFactors(s, accountId);
  const secondStep = factors.totp || factors.passkey;
  return { password: !secondStep, code: factors.totp, passkey: factors.passkey };
}

/** Checks a proof for the account (`address` is the caller's, for the limits); throws when it is not right. */
export async function checkProof(
  s: Services,
  accountId: string,
  proof: Proof,
  o: { limiter: Limiter; address: string },
): Promise<void> {
  const kinds = await proofKinds(s, accountId);
  if (proof.passkey && kinds.passkey) {
    const hit = await o.limiter.enforce('secondStepByAddress', { accountId: null, address: o.address });
    await verifyPasskey(s, { ...proof.passkey, accountId });
    await hit?.refund();
    return;
  }
  if (proof.code !== undefined && kinds.code) {
    const byAccount = await o.limiter.enforce('secondStep', { accountId, address: '' });
    const byAddress = await o.limiter.enforce('secondStepByAddress', { accountId: null, address: o.address });
    await checkCode(s, accountId, proof.code, { recovery: true });
    await byAccount?.refund();
    await byAddress?.refund();
    return;
  }
  if (proof.password !== undefined && kinds.password) {
    const hit = await o.limiter.enforce('currentPassword', { accountId, address: '' });
    const account = await accountsRepo(s.db).find(accountId);
    if (!account?.passwordHash || !(await verifyPassword(proof.password, account.passwordHash))) {
      throw new AppError('bad_credentials', { field: 'proofPassword', hint: 'The password is wrong.' });
    }
    await hit?.refund();
    return;
  }
  throw new AppError('invalid_fields', {
    field: 'proof',
    detail: 'proof',
    hint: kinds.password
      ? 'Enter your password to go on.'
      : kinds.code
        ? 'Enter a code from your authenticator app or a recovery code, or use a passkey, to go on.'
        : 'Use your passkey to go on.',
  });
}
