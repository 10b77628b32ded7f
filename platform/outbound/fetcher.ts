/**
 * The one way the service reaches the network (avatar URLs, imports, webhooks, link checks).
 * http(s) only; the host is resolved and every address is classified (platform/outbound/addresses.ts,
 * default-deny: public unicast only) and refused as `blocked` otherwise, unless a webhook
 * delivery (`allowListed`) goes to a host and port on the operator's OUTBOUND_ALLOW list. The check runs in the socket's own lookup,
 * so the address connected to is the address checked (no DNS-rebinding gap), and again on
 * every redirect: a `Location` that is not a URL is `unreachable`, one with another scheme or
 * with user-info is `blocked`. A byte limit and a total deadline (FETCH_DEADLINE_MS, redirects
 * included) bound every fetch; failures are `unreachable`.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { AppError } from '../../core/errors.js';
import { allowList, blockedAddressReason, isAllowed } from './addresses.js';
import { asFetchError, asStatusError, formatBytes } from './fetchErrors.js';
import {
  FETCH_DEADLINE_MS,
  FETCH_USER_AGENT,
  type Fetched,
  type FetcherSettings,
  type FetchOptions,
} from './fetchOptions.js';

export { blockedAddressReason } from './addresses.js';

export {
  FETCH_DEADLINE_MS,
  FETCH_USER_AGENT,
  type Fetched,
  type FetcherSettings,
  type FetchOptions,
} from './fetchOptions.js';

/** Errors of a connection the other end dropped. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE']);

const defaultResolve = async (hostname: string) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export function createFetcher(settings: FetcherSettings = {}) {
  const resolve = settings.resolve ?? defaultResolve;
  const allowLoopback = settings.allowLoopbackForTests === true;
  const deadlineMs = settings.deadlineMs ?? FETCH_DEADLINE_MS;
  const allow = allowList(settings.allow ?? []);
  // Connections of this fetcher only: a kept-alive socket another fetcher (other rules) opened is
  // never reused. An idle one closes after 2 s: a link check touches thousands of hosts once each.
  const pool = { keepAlive: true, timeout: 2_000 };
  const trust = settings.caForTests ? { ca: [...tls.rootCertificates, settings.caForTests] } : {};
  const agentsOf = () => ({ http: new http.Agent(pool), https: new https.Agent({ ...pool, ...trust }) });
  // Allow-listed connections have a pool of their own: no other fetch reuses one of their sockets.
  const agents = { public: agentsOf(), listed: agentsOf() };

  /** Resolves for the socket and refuses the connection unless every address is allowed (or the host is exempt). */
  const lookupFor =
    (exempt: boolean): LookupFunction =>
    (hostname, options, callback) => {
      resolve(hostname).then(
        (addresses) => {
          const bad = exempt ? undefined : addresses.find((a) => blockedAddressReason(a, allowLoopback) !== null);
          if (addresses.length === 0)
            return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
          if (bad) return callback(Object.assign(new Error(`blocked address ${bad}`), { code: 'EBLOCKED' }), '', 4);
          const chosen = addresses[0];
          const family = isIP(chosen) === 6 ? 6 : 4;
          if ((options as { all?: boolean }).all)
            return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: chosen, family }]);
          callback(null, chosen, family);
        },
        (err: NodeJS.ErrnoException) => callback(err, '', 4),
      );
    };

  /** The first URL: one the caller sent, so a bad one is the caller's `bad_url`. */
  function checkUrl(raw: string, field: string, listed: boolean): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('bad_url', { field, detail: field });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('bad_url', { field, detail: field });
    if (url.username || url.password) throw new AppError('bad_url', { field, detail: field });
    return checkHost(url, field, listed);
  }

  /**
   * A redirect's target: the server's doing, so what is not a URL is `unreachable` and what is
   * not followed (another scheme, user-info, a refused address) is `blocked`.
   */
  function checkRedirect(location: string, from: URL, field: string, listed: boolean): URL {
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
    return checkHost(url, field, listed);
  }

  /** An IP literal is checked here, before any socket; a name is checked in the socket's lookup. */
  function checkHost(url: URL, field: string, listed: boolean): URL {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (listed && isAllowed(allow, url)) return url;
    if (isIP(host) !== 0 && blockedAddressReason(host, allowLoopback) !== null) {
      throw new AppError('blocked', { field, detail: url.hostname });
    }
    return url;
  }

  type Settings = Required<Pick<FetchOptions, 'maxBytes' | 'timeoutMs' | 'maxRedirects'>> &
    Pick<FetchOptions, 'accept' | 'truncate' | 'method' | 'headers' | 'body' | 'allowListed' | 'firstByteTimeoutMs'>;

  function once(url: URL, field: string, options: Settings, deadline: number) {
    const tooLarge = () =>
      new AppError('too_large', {
        field,
        detail: field,
        hint: `What ${field} points to is over ${formatBytes(options.maxBytes)}.`,
      });
    type Answer = Omit<Fetched, 'url'> & { location?: string };
    return new Promise<Answer>((resolveAnswer, rejectAnswer) => {
      // A deadline, not an idle timeout: a server sending a byte now and then is cut off too.
      const timer = setTimeout(
        () => {
          const late = Object.assign(new Error('deadline passed'), { code: 'EDEADLINE' });
          req.destroy(late);
          rejectAnswer(late);
        },
        Math.max(0, deadline - Date.now()),
      );
      // A server that takes the request and sends nothing back is cut off sooner, when asked.
      const mute = () => req.destroy(Object.assign(new Error('no answer'), { code: 'EFIRSTBYTE' }));
      const silent = options.firstByteTimeoutMs ? setTimeout(mute, options.firstByteTimeoutMs) : undefined;
      const resolveResponse = (value: Parameters<typeof resolveAnswer>[0]) => {
        clearTimeout(timer);
        resolveAnswer(value);
      };
      const reject = (err: unknown) => {
        clearTimeout(timer);
        clearTimeout(silent);
        rejectAnswer(err);
      };
      let answered = false;
      const exempt = options.allowListed === true && isAllowed(allow, url);
      const pool = exempt ? agents.listed : agents.public;
      const [client, agent] = url.protocol === 'https:' ? [https, pool.https] : [http, pool.http];
      const req = client.request(
        url,
        {
          agent,
          method: options.method ?? 'GET',
          lookup: lookupFor(exempt),
          headers: {
            'user-agent': FETCH_USER_AGENT,
            accept: options.accept ?? '*/*',
            'accept-encoding': 'identity',
            ...options.headers,
          },
        },
        (res) => {
          answered = true;
          clearTimeout(silent);
          const status = res.statusCode ?? 0;
          const contentType = String(res.headers['content-type'] ?? '');
          // When the server asks to be tried again (429, 503; webhooks honour it).
          const retryAfter = res.headers['retry-after'];
          const kept = { cacheControl: res.headers['cache-control'], expires: res.headers.expires };
          if (status >= 300 && status < 400 && res.headers.location) {
            res.resume();
            resolveResponse({ status, location: res.headers.location, contentType, body: Buffer.alloc(0) });
            return;
          }
          const declared = Number(res.headers['content-length'] ?? 0);
          if (declared > options.maxBytes && !options.truncate) {
            req.destroy();
            reject(tooLarge());
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const cut = () => {
            req.destroy();
            resolveResponse({
              status,
              contentType,
              retryAfter,
              ...kept,
              body: Buffer.concat(chunks).subarray(0, options.maxBytes),
            });
          };
          // HEAD has no body: the connection goes back to the pool; a GET's body is cut off unread.
          if (options.truncate && options.maxBytes === 0 && options.method !== 'HEAD') return cut();
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) {
              if (options.truncate) {
                chunks.push(chunk);
                return cut();
              }
              req.destroy();
              reject(tooLarge());
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolveResponse({ status, contentType, retryAfter, ...kept, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed just as this request went out on it: a GET or
        // HEAD is asked once more on a new connection (Node's own advice for this race). A POST
        // (a webhook) is not: the server may have taken it, and deliveries retry on their own.
        const idempotent = options.method !== 'POST';
        if (idempotent && req.reusedSocket && !answered && DROPPED.has(err.code ?? '')) {
          Object.assign(err, { staleSocket: true });
        }
        reject(err);
      });
      req.end(options.body);
    });
  }

  /** Fetches a public URL, following at most `maxRedirects` redirects, each checked again. */
  async function fetchPublic(raw: string, field: string, options: FetchOptions): Promise<Fetched> {
    const settings: Settings = {
      ...options,
      timeoutMs: Math.min(options.timeoutMs ?? deadlineMs, deadlineMs),
      maxRedirects: options.maxRedirects ?? 5,
    };
    const deadline = Date.now() + settings.timeoutMs;
    const listed = options.allowListed === true;
    let url = checkUrl(raw, field, listed);
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof once>>;
      try {
        res = await once(url, field, settings, deadline).catch((err: { staleSocket?: boolean }) => {
          if (err.staleSocket !== true || Date.now() >= deadline) throw err;
          return once(url, field, settings, deadline);
        });
      } catch (err) {
        throw asFetchError(err, url, field, settings);
      }
      if (res.location === undefined || (options.anyStatus && hop >= settings.maxRedirects)) {
        const clientError = res.status >= 400 && res.status < 500;
        const answered =
          options.anyStatus || (res.status >= 200 && res.status < 300) || (clientError && options.clientErrors);
        if (!answered) throw asStatusError(res.status, url, field);
        return {
          url: url.toString(),
          status: res.status,
          contentType: res.contentType,
          retryAfter: res.retryAfter,
          cacheControl: res.cacheControl,
          expires: res.expires,
          body: res.body,
        };
      }
      if (hop >= settings.maxRedirects) {
        throw new AppError('unreachable', {
          field,
          detail: url.hostname,
          hint: `More than ${settings.maxRedirects} redirects.`,
        });
      }
      url = checkRedirect(res.location, url, field, listed);
      // As browsers do: a redirected POST (but for 307 and 308) goes on as a GET without its body.
      if (settings.method === 'POST' && res.status !== 307 && res.status !== 308) {
        settings.method = 'GET';
        settings.body = undefined;
      }
    }
  }

  return { fetchPublic };
}

export type Fetcher = ReturnType<typeof createFetcher>;
