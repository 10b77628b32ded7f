/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an app
 * whose `client_id` is an https URL is known by the JSON document at that URL, with no
 * registration first (what MCP's 2026 authorization spec recommends, and what the MCP SDK's
 * `clientMetadataUrl` sends). The authorization server (oidc-provider's
 * `clientIdMetadataDocument` feature) checks the document: `client_id` equal to the URL, no
 * shared secret, redirect URIs matched exactly, https addresses, and keeps it as its
 * Cache-Control or Expires say, from five minutes to a day. It fetches it here, through the
 * service's fetcher (platform/outbound/fetcher.ts): public addresses only, checked on the socket
 * itself; no redirect followed; at most 5 KB in 2.5 s. A document not kept yet counts against
 * the requesting address's limit (`oauthDocument`), so nobody has the service fetch for them at will.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Fetcher } from '../../outbound/fetcher.js';

/** How long a fetched document is kept, in seconds, whatever its headers ask. */
export const DOCUMENT_CACHE = { min: 300, max: 86_400 };
const MAX_BYTES = 5 * 1024;
const DEADLINE_MS = 2_500;
/** Statuses whose answers have no body, which a `Response` refuses one for. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * The `fetch` oidc-provider makes its outgoing requests with: the service's fetcher behind the
 * web's fetch interface. Anything it refuses (a private address, too large, too slow) is a
 * failed fetch, which the library answers as `invalid_client`.
 */
export function providerFetch(fetcher: Fetcher) {
  return async (input: string | URL, init: { method?: string; headers?: HeadersInit } = {}): Promise<Response> => {
    const accept = new Headers(init.headers).get('accept') ?? 'application/json';
    const got = await fetcher.fetchPublic(String(input), 'client_id', {
      maxBytes: MAX_BYTES,
      timeoutMs: DEADLINE_MS,
      maxRedirects: 0,
      anyStatus: true,
      accept,
      method: init.method === 'HEAD' ? 'HEAD' : 'GET',
    });
    const headers = new Headers();
    if (got.contentType) headers.set('content-type', got.contentType);
    if (got.cacheControl) headers.set('cache-control', got.cacheControl);
    if (got.expires) headers.set('expires', got.expires);
    const body = BODILESS.has(got.status) ? null : new Uint8Array(got.body);
    return new Response(body, { status: got.status, headers });
  };
}

/** Whether a client id is a metadata document's address (an https URL) rather than a registered id. */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** The host that publishes an app's metadata document (what the person sees it vouched for by), or null for a registered app. */
export function documentHost(clientId: string): string | null {
  if (!isDocumentClientId(clientId)) return null;
  return URL.parse(clientId)?.host ?? null;
}

/** The limit of the request being answered (server.ts sets it around the library's handling). */
const fetchLimit = new AsyncLocalStorage<() => Promise<boolean>>();

/** Runs `handle` with `allowed` deciding whether a document may be fetched for this request. */
export function withDocumentLimit<T>(allowed: () => Promise<boolean>, handle: () => T): T {
  return fetchLimit.run(allowed, handle);
}

/** The library's `allowFetch`: whether this request may have a document fetched (a refusal is `invalid_client`). */
export async function allowDocumentFetch(): Promise<boolean> {
  const allowed = fetchLimit.getStore();
  return allowed ? allowed() : true;
}
