/**
 * The one way the service fetches from the network (avatar URLs, imports). http(s) only; the
 * host is resolved and every address is classified with ipaddr.js: anything but public
 * unicast (loopback, private, link-local, unique-local, multicast, reserved, IPv4-mapped forms
 * of those, …) is refused as `blocked`. The check runs in the socket's own lookup, so the
 * address connected to is the address checked (no DNS-rebinding gap), and again on every
 * redirect. Timeouts and a byte limit bound every fetch; failures are `unreachable`.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../core/errors.js';

export const FETCH_USER_AGENT = 'linkpage-fetcher/1.0 (+link-in-bio page service; fetches only what a user asked for)';

export interface FetchOptions {
  /** Largest body accepted; a larger one is `too_large`. */
  maxBytes: number;
  /** Whole-request time limit. */
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** Answer 4xx responses (body included) instead of throwing `unreachable`: 404 can mean "no such profile". */
  clientErrors?: boolean;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface FetcherSettings {
  /**
   * Test-only: lets loopback addresses through so tests can fetch from servers they start on
   * 127.0.0.1. Never set from configuration.
   */
  allowLoopbackForTests?: boolean;
  /** Resolver, replaceable in tests to make a name resolve to any address. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** Why an address may not be fetched, or null when it is public unicast. */
export function blockedAddressReason(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return null;
  if (allowLoopback && range === 'loopback') return null;
  return range;
}

const defaultResolve = async (hostname: string) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export function createFetcher(settings: FetcherSettings = {}) {
  const resolve = settings.resolve ?? defaultResolve;
  const allowLoopback = settings.allowLoopbackForTests === true;

  /** Resolves for the socket and refuses the connection unless every address is allowed. */
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => blockedAddressReason(a, allowLoopback) !== null);
        if (addresses.length === 0)
          return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
        if (bad) return callback(Object.assign(new Error(`blocked address ${bad}`), { code: 'EBLOCKED' }), '', 4);
        const chosen = addresses[0];
        const family = ipaddr.parse(chosen).kind() === 'ipv6' ? 6 : 4;
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: chosen, family }]);
        callback(null, chosen, family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };

  function checkUrl(raw: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('bad_url', { field, detail: field });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('bad_url', { field, detail: field });
    if (url.username || url.password) throw new AppError('bad_url', { field, detail: field });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && blockedAddressReason(host, allowLoopback) !== null) {
      throw new AppError('blocked', { field, detail: url.hostname });
    }
    return url;
  }

  function once(
    url: URL,
    field: string,
    options: Required<Omit<FetchOptions, 'accept' | 'clientErrors'>> & { accept?: string },
    deadline: number,
  ) {
    const tooLarge = () =>
      new AppError('too_large', {
        field,
        detail: field,
        hint: `What ${field} points to is over ${formatBytes(options.maxBytes)}.`,
      });
    return new Promise<{ status: number; location?: string; contentType: string; body: Buffer }>(
      (resolveResponse, reject) => {
        const client = url.protocol === 'https:' ? https : http;
        const req = client.request(
          url,
          {
            method: 'GET',
            lookup,
            timeout: Math.max(1, deadline - Date.now()),
            headers: { 'user-agent': FETCH_USER_AGENT, accept: options.accept ?? '*/*', 'accept-encoding': 'identity' },
          },
          (res) => {
            const status = res.statusCode ?? 0;
            if (status >= 300 && status < 400 && res.headers.location) {
              res.resume();
              resolveResponse({ status, location: res.headers.location, contentType: '', body: Buffer.alloc(0) });
              return;
            }
            const declared = Number(res.headers['content-length'] ?? 0);
            if (declared > options.maxBytes) {
              req.destroy();
              reject(tooLarge());
              return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > options.maxBytes) {
                req.destroy();
                reject(tooLarge());
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () =>
              resolveResponse({
                status,
                contentType: String(res.headers['content-type'] ?? ''),
                body: Buffer.concat(chunks),
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
        req.on('error', reject);
        req.end();
      },
    );
  }

  /** Fetches a public URL, following at most `maxRedirects` redirects, each checked again. */
  async function fetchPublic(raw: string, field: string, options: FetchOptions): Promise<Fetched> {
    const settings = {
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRedirects: options.maxRedirects ?? 5,
      accept: options.accept,
    };
    const deadline = Date.now() + settings.timeoutMs;
    let url = checkUrl(raw, field);
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof once>>;
      try {
        res = await once(url, field, settings, deadline);
      } catch (err) {
        if (err instanceof AppError) throw err;
        if ((err as NodeJS.ErrnoException).code === 'EBLOCKED')
          throw new AppError('blocked', { field, detail: url.hostname });
        throw new AppError('unreachable', {
          field,
          detail: url.hostname,
          hint: `The URL could not be fetched (${(err as Error).message}).`,
        });
      }
      if (res.location === undefined) {
        const clientError = res.status >= 400 && res.status < 500;
        if ((res.status < 200 || res.status >= 300) && !(clientError && options.clientErrors)) {
          throw new AppError('unreachable', {
            field,
            detail: url.hostname,
            hint: `The server answered ${res.status}.`,
          });
        }
        return { url: url.toString(), status: res.status, contentType: res.contentType, body: res.body };
      }
      if (hop >= settings.maxRedirects) {
        throw new AppError('unreachable', {
          field,
          detail: url.hostname,
          hint: `More than ${settings.maxRedirects} redirects.`,
        });
      }
      url = checkUrl(new URL(res.location, url).toString(), field);
    }
  }

  return { fetchPublic };
}

export type Fetcher = ReturnType<typeof createFetcher>;

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
