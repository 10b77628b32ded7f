/**
 * The one way the service fetches from the network (avatar URLs, imports). http(s) only; the
 * host is resolved and every address is classified with ipaddr.js, default-deny: only public
 * unicast IPv4 and global unicast IPv6 (2000::/3) pass. Everything else is refused as
 * `blocked`: loopback, private, link-local, unique-local, multicast, reserved, and every IPv6
 * form that maps or embeds an IPv4 address (IPv4-compatible `::/96`, IPv4-mapped, NAT64,
 * 6to4, Teredo). The check runs in the socket's own lookup, so the address connected to is
 * the address checked (no DNS-rebinding gap), and again on every redirect: a `Location` that
 * is not a URL is `unreachable`, one with another scheme or with user-info is `blocked`.
 * A byte limit and a total deadline (FETCH_DEADLINE_MS, redirects included) bound every
 * fetch; failures are `unreachable`.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../core/errors.js';

/** The longest one fetch may take, from resolving the name to the last byte received, redirects included. */
export const FETCH_DEADLINE_MS = 10_000;

export const FETCH_USER_AGENT = 'linkpage-fetcher/1.0 (+link-in-bio page service; fetches only what a user asked for)';

export interface FetchOptions {
  /** Largest body accepted; a larger one is `too_large`. */
  maxBytes: number;
  /** Total time limit, redirects included; it can only shorten the fetcher's deadline. */
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
  /** Total time one fetch may take, redirects included (default FETCH_DEADLINE_MS); tests shorten it. */
  deadlineMs?: number;
}

const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (deprecated, RFC 4291): ipaddr.js calls it plain unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why an address may not be fetched, or null when it may. Default-deny: anything but what
 * ipaddr.js calls `unicast` is refused by its range name (`loopback`, `ipv4Mapped`, `rfc6052`
 * for NAT64, `6to4`, `teredo`, …), and an IPv6 address must also be global unicast (2000::/3)
 * and not IPv4-compatible. Mapped forms are refused whatever IPv4 address they carry.
 */
export function blockedAddressReason(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.parse(address);
  const range = ip.range();
  if (allowLoopback && range === 'loopback') return null;
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6') {
    if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!ip.match(IPV6_GLOBAL_UNICAST)) return 'notGlobalUnicast';
  }
  return null;
}

const defaultResolve = async (hostname: string) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export function createFetcher(settings: FetcherSettings = {}) {
  const resolve = settings.resolve ?? defaultResolve;
  const allowLoopback = settings.allowLoopbackForTests === true;
  const deadlineMs = settings.deadlineMs ?? FETCH_DEADLINE_MS;

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

  /** The first URL: one the caller sent, so a bad one is the caller's `bad_url`. */
  function checkUrl(raw: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('bad_url', { field, detail: field });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('bad_url', { field, detail: field });
    if (url.username || url.password) throw new AppError('bad_url', { field, detail: field });
    return checkHost(url, field);
  }

  /**
   * A redirect's target: the server's doing, so what is not a URL is `unreachable` and what is
   * not followed (another scheme, user-info, a refused address) is `blocked`.
   */
  function checkRedirect(location: string, from: URL, field: string): URL {
    let url: URL;
    try {
      url = new URL(location, from);
    } catch {
      throw new AppError('unreachable', {
        field,
        detail: from.hostname,
        hint: 'The server redirected to something that is not a URL.',
      });
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      throw new AppError('blocked', {
        field,
        detail: from.hostname,
        hint: 'The server redirected to a URL that is not followed (only plain http(s) URLs are).',
      });
    }
    return checkHost(url, field);
  }

  /** An IP literal is checked here, before any socket; a name is checked in the socket's lookup. */
  function checkHost(url: URL, field: string): URL {
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
      (resolveAnswer, rejectAnswer) => {
        // A deadline, not an idle timeout: a server sending a byte now and then is cut off too.
        const timer = setTimeout(
          () => {
            const late = Object.assign(new Error('deadline passed'), { code: 'EDEADLINE' });
            req.destroy(late);
            rejectAnswer(late);
          },
          Math.max(0, deadline - Date.now()),
        );
        const resolveResponse = (value: Parameters<typeof resolveAnswer>[0]) => {
          clearTimeout(timer);
          resolveAnswer(value);
        };
        const reject = (err: unknown) => {
          clearTimeout(timer);
          rejectAnswer(err);
        };
        const client = url.protocol === 'https:' ? https : http;
        const req = client.request(
          url,
          {
            method: 'GET',
            lookup,
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
        req.on('error', reject);
        req.end();
      },
    );
  }

  /** Fetches a public URL, following at most `maxRedirects` redirects, each checked again. */
  async function fetchPublic(raw: string, field: string, options: FetchOptions): Promise<Fetched> {
    const settings = {
      maxBytes: options.maxBytes,
      timeoutMs: Math.min(options.timeoutMs ?? deadlineMs, deadlineMs),
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
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EBLOCKED') throw new AppError('blocked', { field, detail: url.hostname });
        if (code === 'EDEADLINE') {
          throw new AppError('unreachable', {
            field,
            detail: url.hostname,
            hint: `The URL was not fetched in full within ${settings.timeoutMs / 1000} s (redirects included).`,
          });
        }
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
      url = checkRedirect(res.location, url, field);
    }
  }

  return { fetchPublic };
}

export type Fetcher = ReturnType<typeof createFetcher>;

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
