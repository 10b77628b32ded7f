/**
 * The headers a client sends or reads, declared once in components (parameters and headers)
 * and referred to by each operation that uses them. Their names are the ones edge/ reads and
 * sets: If-Match (platform/edge/preconditions.ts), X-CSRF-Token (platform/edge/auth.ts), Idempotency-Key
 * (api/agent/routes.ts), RateLimit-* (platform/edge/limits.ts), Retry-After (platform/edge/errors.ts).
 */

type Json = Record<string, unknown>;

/** Request headers a route may declare (RouteDef.headers); X-CSRF-Token follows from its auth. */
export type RequestHeader = 'If-Match' | 'Idempotency-Key';
/** Response headers a route's answer may declare; RateLimit-* and Retry-After follow from its limits. */
export type ResponseHeader = 'ETag' | 'Content-Disposition';

const PARAMETERS: Record<RequestHeader | 'X-CSRF-Token', Json> = {
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'The ETag of your last read ("<version>"): the change is made only if the page is still at that version, else 412 precondition_failed. Without it (or with *), the last write wins.',
    schema: { type: 'string', pattern: '^(\\*|"[1-9][0-9]{0,9}"(\\s*,\\s*"[1-9][0-9]{0,9}")*)$' },
    example: '"3"',
  },
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A retry with the same value within 24 hours replays the first answer and creates nothing. 1-255 visible ASCII characters, such as a UUID; without an API key at least 16 and random, since the caller is known only by its address and User-Agent.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
    example: '5f0c6d1e-8a4b-4c1e-9a57-1c2d3e4f5a6b',
  },
  'X-CSRF-Token': {
    name: 'X-CSRF-Token',
    in: 'header',
    required: false,
    description:
      "With the dashboard's session cookie, every write sends the session's CSRF token here (403 csrf_failed without it). Not needed with an API key.",
    schema: { type: 'string' },
  },
};

const integer = { type: 'integer', minimum: 0 };

const HEADERS: Record<ResponseHeader | RateLimitHeader | 'Retry-After', Json> = {
  ETag: {
    description: 'The page\'s version as a strong ETag ("<version>"): send it back in If-Match.',
    schema: { type: 'string', pattern: '^"[1-9][0-9]*"$' },
    example: '"4"',
  },
  'Content-Disposition': {
    description: 'attachment, with a file name to save the answer under.',
    schema: { type: 'string' },
    example: 'attachment; filename="stats-2026-10-28-2026-11-26.csv"',
  },
  'RateLimit-Limit': { description: 'Requests (or creates) allowed in the window', schema: integer, example: 60 },
  'RateLimit-Remaining': { description: 'How many are left in the window', schema: integer, example: 59 },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: integer, example: 42 },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: integer, example: 30 },
};

type RateLimitHeader = 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset';
const RATE_LIMIT: RateLimitHeader[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

function headerRef(name: string): Json {
  return { $ref: `#/components/headers/${name}` };
}

export function parameterRef(name: RequestHeader | 'X-CSRF-Token'): Json {
  return { $ref: `#/components/parameters/${name}` };
}

/** The headers object of an answer. */
export function answerHeaders(opts: { own?: ResponseHeader[]; limited?: boolean; retryAfter?: boolean }): Json {
  const names = [...(opts.own ?? []), ...(opts.limited ? RATE_LIMIT : []), ...(opts.retryAfter ? ['Retry-After'] : [])];
  return Object.fromEntries(names.map((n) => [n, headerRef(n)]));
}

export const HEADER_COMPONENTS = { parameters: PARAMETERS, headers: HEADERS };
