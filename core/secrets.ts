/**
 * Random identifiers, API keys, claim tokens, password hashes and the small cryptography
 * around them. Keys and tokens are stored only as SHA-256 hashes; passwords with scrypt.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  type ScryptOptions,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';

/** Account, page, key and token ids: 24 lowercase hex characters. */
export const ID_PATTERN = /^[0-9a-f]{24}$/;

export function newId(): string {
  return randomBytes(12).toString('hex');
}

export const API_KEY_PATTERN = /^svc_sk_[A-Za-z0-9_-]{43}$/;

/** `svc_sk_` + 43 base64url characters from 32 random bytes. */
export function newApiKey(): string {
  return `svc_sk_${randomBytes(32).toString('base64url')}`;
}

export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newClaimToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A keyed hash of a client address (or anything personal): stable per server secret, not reversible. */
export function hashAddress(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`address:${address}`).digest('base64url');
}

/**
 * A browser's mark of an account it got into (platform/edge/devices.ts): keyed by the secret, bound to
 * the password hash so that a new password voids the marks made before it.
 */
export function deviceMark(secret: string, accountId: string, passwordHash: string): string {
  return createHmac('sha256', secret).update(`device:${accountId}:${passwordHash}`).digest('base64url').slice(0, 22);
}

/**
 * The default PASSWORD_COST: scrypt's N is 2 to this power (2^15 with r = 8: 32 MiB and about
 * 100 ms of one core per hash). Each hash keeps its own N, so a changed cost applies to passwords
 * set from then on, and every stored one still verifies.
 */
export const DEFAULT_PASSWORD_COST = 15;

const SCRYPT: ScryptOptions & { r: number; p: number } = {
  r: 8,
  p: 1,
  maxmem: 256 * 1024 * 1024,
};

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` with N = 2^cost, all parameters kept so they can be raised later. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const hash = await scryptAsync(password, salt, { ...SCRYPT, N });
  return ['scrypt', N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), {
    ...SCRYPT,
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function sealKey(secret: string): Buffer {
  return createHash('sha256').update(`seal:${secret}`).digest();
}

/** AES-256-GCM with a key derived from the server secret: for answers that must be replayed but not stored in clear. */
export function seal(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function unseal(secret: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((s) => Buffer.from(s, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
