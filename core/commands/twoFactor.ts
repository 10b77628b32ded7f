/**
 * Authenticator-app codes (TOTP, RFC 6238, with otpauth: SHA-1, 6 digits, 30 seconds, one step
 * of drift either way) and ten one-time recovery codes. The secret is sealed with the server's
 * secret (a database dump alone does not give it); recovery codes are kept as SHA-256 only and
 * shown once. A code's step is recorded when accepted: the same code never works twice.
 */
import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Queryable } from '../../platform/store/db.js';
import { passkeysRepo } from '../../platform/store/passkeys.js';
import { twoFactorRepo } from '../../platform/store/twoFactor.js';
import { AppError } from '../errors.js';
import { newId, seal, sha256, unseal } from '../secrets.js';
import type { Services } from '../services.js';
import { verifyPasskey } from './passkeys.js';

const PERIOD = 30;
const RECOVERY_CODES = 10;

function totp(secret: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'linkpage',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

const wrongCode = () =>
  new AppError('bad_credentials', { field: 'code', hint: 'That code is not right. Try the current one.' });

/** The step a code is right for (now, or one step either side), or null. */
function stepOf(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret, '').validate({ token, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

/** Starts setting up: a new secret, kept pending until a code confirms it; answers what the app scans. */
export async function startTotp(
  s: Services,
  accountId: string,
  label: string,
): Promise<{ uri: string; secret: string }> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await twoFactorRepo(s.db).setPending(accountId, seal(s.secret, secret));
  return { uri: totp(secret, label).toString(), secret };
}

/** The pending secret again (the setup form shown once more after a wrong code). */
export async function pendingTotp(s: Services, accountId: string, label: string) {
  const row = await twoFactorRepo(s.db).totp(accountId);
  if (!row?.pendingSealed) return null;
  const secret = unseal(s.secret, row.pendingSealed);
  return { uri: totp(secret, label).toString(), secret };
}

/** Confirms the pending secret with a code from the app: TOTP is on; answers the recovery codes, shown once. */
export async function confirmTotp(s: Services, accountId: string, code: string): Promise<string[]> {
  const repo = twoFactorRepo(s.db);
  const row = await repo.totp(accountId);
  if (!row?.pendingSealed) throw new AppError('invalid_fields', { hint: 'Start the setup again.' });
  const step = stepOf(unseal(s.secret, row.pendingSealed), code, s.now());
  if (step === null) throw wrongCode();
  return s.db.transaction(async (tx) => {
    await twoFactorRepo(tx).enable(accountId, row.pendingSealed!, step, s.now());
    return newRecoveryCodes(tx, accountId);
  });
}

async function newRecoveryCodes(db: Queryable, accountId: string) {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBytes(6).toString('hex');
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
  });
  await twoFactorRepo(db).replaceRecoveryCodes(
    accountId,
    codes.map((c) => ({ id: newId(), hash: sha256(c) })),
  );
  return codes;
}

/** Whether the account has TOTP on. */
export async function totpOn(s: Services, accountId: string): Promise<boolean> {
  return Boolean((await twoFactorRepo(s.db).totp(accountId))?.secretSealed);
}

/** What the account asks for after a right password: a code (TOTP on) and/or a passkey. */
export async function secondFactors(s: Services, accountId: string): Promise<{ totp: boolean; passkey: boolean }> {
  const [on, passkeys] = await Promise.all([totpOn(s, accountId), passkeysRepo(s.db).countByAccount(accountId)]);
  return { totp: on, passkey: passkeys > 0 };
}

/**
 * Checks a code from the app (never one accepted before) or, when `recovery` allows, an unused
 * recovery code (used up by this); throws bad_credentials otherwise.
 */
export async function checkCode(s: Services, accountId: string, code: string, o: { recovery: boolean }) {
  const repo = twoFactorRepo(s.db);
  const row = await repo.totp(accountId);
  if (!row?.secretSealed) throw wrongCode();
  const step = stepOf(unseal(s.secret, row.secretSealed), code, s.now());
  if (step !== null) {
    if (await repo.useStep(accountId, step)) return;
    throw new AppError('bad_credentials', {
      field: 'code',
      hint: 'That code was used already. Wait for the next one.',
    });
  }
  // A recovery code as a person types it from paper: any case, with or without its hyphens, spaces anywhere.
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  const recovery = plain.match(/.{1,4}/g)?.join('-') ?? '';
  if (o.recovery && /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/.test(recovery)) {
    if (await repo.useRecoveryCode(accountId, sha256(recovery), s.now())) return;
  }
  throw wrongCode();
}

/**
 * Turns TOTP off, proved with a current code from the app or with one of the account's passkeys
 * (someone who lost the phone but keeps a passkey need not wait for a recovery code); its
 * recovery codes go with it.
 */
export async function disableTotp(
  s: Services,
  accountId: string,
  proof: { code: string } | { passkey: { challengeId: unknown; response: unknown } },
): Promise<void> {
  if ('code' in proof) await checkCode(s, accountId, proof.code, { recovery: false });
  else await verifyPasskey(s, { ...proof.passkey, accountId });
  await twoFactorRepo(s.db).disable(accountId);
}

/** New recovery codes (a current code from the app required); the old ones stop working. */
export async function regenerateRecoveryCodes(s: Services, accountId: string, code: string): Promise<string[]> {
  await checkCode(s, accountId, code, { recovery: false });
  return newRecoveryCodes(s.db, accountId);
}

export async function unusedRecoveryCodes(s: Services, accountId: string): Promise<number> {
  return twoFactorRepo(s.db).unusedRecoveryCodes(accountId);
}
