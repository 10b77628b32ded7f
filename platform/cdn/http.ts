/**
 * One purge request to a CDN, as every adapter sends it: a time limit, and any answer but a
 * 2xx (or no answer) thrown as an error naming the CDN, the host and the status, never the
 * credentials, so the caller can queue the keys and try again.
 */

export type FetchLike = typeof fetch;

export interface PurgeRequest {
  cdn: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  fetch: FetchLike;
}

export class PurgeError extends Error {
  constructor(cdn: string, url: string, what: string) {
    super(`${cdn} purge at ${new URL(url).host} failed: ${what}`);
    this.name = 'PurgeError';
  }
}

/** Sends the request; returns the answer's text when it is a 2xx, throws a PurgeError otherwise. */
export async function sendPurge(r: PurgeRequest): Promise<string> {
  let res: Response;
  try {
    res = await r.fetch(r.url, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      signal: AbortSignal.timeout(r.timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const what =
      e.name === 'TimeoutError' ? `no answer within ${r.timeoutMs} ms` : (e.cause?.code ?? e.name ?? 'error');
    throw new PurgeError(r.cdn, r.url, what);
  }
  const text = await res.text().catch(() => '');
  if (res.status < 200 || res.status > 299) throw new PurgeError(r.cdn, r.url, `HTTP ${res.status}`);
  return text;
}

/** The keys in groups of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const KEY = /^[a-z0-9-]{1,200}$/;

/** Keys are made by cdn.ts (`page-<name>`, `template-<id>`); anything else is a bug, not input. */
export function assertKeys(keys: readonly string[]): void {
  const bad = keys.find((k) => !KEY.test(k));
  if (bad !== undefined) throw new Error(`not a CDN purge key: ${JSON.stringify(bad)}`);
}
