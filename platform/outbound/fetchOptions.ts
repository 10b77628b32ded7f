/** What a caller of the outbound fetcher (platform/outbound/fetcher.ts) asks for and gets back, and its fixed limits. */

/** The longest one fetch may take, from resolving the name to the last byte received, redirects included. */
export const FETCH_DEADLINE_MS = 10_000;

export const FETCH_USER_AGENT = 'linkpage-fetcher/1.0 (+link-in-bio page service; fetches only what a user asked for)';

export interface FetchOptions {
  /** Largest body accepted; a larger one is `too_large`. */
  maxBytes: number;
  /** Total time limit, redirects included; it can only shorten the fetcher's deadline. */
  timeoutMs?: number;
  /** Time limit from sending the request to the answer's first byte (its status line), per hop. */
  firstByteTimeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** Answer 4xx responses (body included) instead of throwing `unreachable`: 404 can mean "no such profile". */
  clientErrors?: boolean;
  /** Answer whatever status comes (a 3xx too once `maxRedirects` are used up): for probes and webhooks. */
  anyStatus?: boolean;
  /** Keep the first `maxBytes` of a longer body rather than refusing it as `too_large`. */
  truncate?: boolean;
  method?: 'GET' | 'HEAD' | 'POST';
  /** May reach the operator's OUTBOUND_ALLOW receivers: webhook deliveries, and nothing a user can point elsewhere. */
  allowListed?: boolean;
  /** Request headers besides the fetcher's own (User-Agent, Accept, Accept-Encoding); these win. */
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  /** The answer's Retry-After header, when it has one. */
  retryAfter?: string;
  /** The answer's Cache-Control and Expires headers, when it has them (how long a document may be kept). */
  cacheControl?: string;
  expires?: string;
  body: Buffer;
}

/** How a fetcher is made (createFetcher): its resolver, deadline and exemptions. */
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
  /** OUTBOUND_ALLOW: `host:port` entries exempt from the address rule (receivers inside a private network). */
  allow?: readonly string[];
  /**
   * Test-only: a certificate (PEM) trusted beside the system's authorities, for the HTTPS servers
   * tests start on 127.0.0.1. Never set from configuration.
   */
  caForTests?: string;
}
