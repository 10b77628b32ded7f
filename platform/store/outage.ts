/**
 * Whether a failure means the database or the object storage cannot be reached just now (it is
 * down, restarting, or the network to it is) or refuses writes (a full or read-only disk), as
 * opposed to a mistake in a request or a bug:
 * the first is answered 503 `unavailable` with Retry-After, and the client tries again.
 */

/** Socket errors on the way to PostgreSQL or the bucket. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * PostgreSQL's SQLSTATEs for a server that is going or not there: connection exceptions (class
 * 08), shutdown and start-up (57P01–57P03), too many connections (53300).
 */
const POSTGRES_DOWN = /^(08...|57P0[1-3]|53300)$/;

/** What node-postgres says when the connection went away under it or never came. */
const PG_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

/** Time-outs and server errors of the S3 client (the bucket answered 5xx, or not at all). */
function isStorageDown(e: { name?: unknown; $metadata?: { httpStatusCode?: number } }): boolean {
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  const status = e.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

/** What each code of a storage that refuses writes means, in the words an operator reads. */
const REFUSALS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/** The same codes as PGlite's WebAssembly file system numbers them (Emscripten's errno values). */
const WASM_ERRNOS: Record<number, string> = { 51: 'ENOSPC', 19: 'EDQUOT', 69: 'EROFS', 2: 'EACCES', 63: 'EPERM' };

/** PostgreSQL's disk_full: a table or its log could not grow. */
const DISK_FULL = '53100';

export interface WriteRefusal {
  /** ENOSPC, EDQUOT, EROFS, EACCES or EPERM. */
  code: string;
  /** What the code means, in a few words. */
  reason: string;
  /** The file or folder refused, when the error names it. */
  path?: string;
}

/**
 * Whether a failure is a disk or folder that refuses writes (full, over quota, read-only, not
 * ours to write), from Node, PGlite's file system or PostgreSQL's disk_full; else null.
 */
export function writeRefusal(err: unknown, depth = 0): WriteRefusal | null {
  if (!err || typeof err !== 'object' || depth > 3) return null;
  const e = err as { code?: unknown; errno?: unknown; name?: unknown; path?: unknown; cause?: unknown };
  let code = typeof e.code === 'string' && Object.hasOwn(REFUSALS, e.code) ? e.code : null;
  if (e.code === DISK_FULL) code = 'ENOSPC';
  if (!code && e.name === 'ErrnoError' && typeof e.errno === 'number') code = WASM_ERRNOS[e.errno] ?? null;
  if (!code) return writeRefusal(e.cause, depth + 1);
  return { code, reason: REFUSALS[code], ...(typeof e.path === 'string' ? { path: e.path } : {}) };
}

export function isOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    name?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || POSTGRES_DOWN.test(e.code))) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  if (isStorageDown(e) || writeRefusal(e)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isOutage(inner, depth + 1))) return true;
  return isOutage(e.cause, depth + 1);
}

/** Seconds a client is asked to wait before trying again. */
export const OUTAGE_RETRY_AFTER_S = 5;

/** The same for storage that refuses writes: space comes back when someone makes it. */
export const REFUSAL_RETRY_AFTER_S = 60;
