/**
 * Whether a failure means the database or the object storage cannot be reached just now (it is
 * down, restarting, or the network to it is), as opposed to a mistake in a request or a bug:
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
  if (isStorageDown(e)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isOutage(inner, depth + 1))) return true;
  return isOutage(e.cause, depth + 1);
}

/** Seconds a client is asked to wait before trying again. */
export const OUTAGE_RETRY_AFTER_S = 5;
