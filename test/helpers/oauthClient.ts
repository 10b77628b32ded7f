/**
 * An MCP client's side of OAuth, for the tests of the MCP address for people: discovery from a
 * 401, dynamic registration, PKCE (S256), the code for tokens, refresh, and MCP calls with the
 * bearer token. Plain HTTP, as a client library does it; the app's answers are not mocked.
 * The redirect URI is a real server on 127.0.0.1 that keeps the addresses it was sent to.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomAddress } from './client.js';
import { app } from './hooks.js';
import type { Person } from './person.js';

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** A loopback redirect URI; `next()` resolves with the next address a browser is sent to. */
export async function redirectReceiver() {
  const waiting: ((url: URL) => void)[] = [];
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end('You can close this window.');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname === '/callback') waiting.shift()?.(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function postForm(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> & Partial<Tokens> };
}

/** A JSON-RPC call to an MCP address, as the SDK's Streamable HTTP client sends it. */
export async function mcpCall(path: string, method: string, params: unknown, token?: string) {
  const res = await fetch(app().url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/**
 * Calls a tool; its structured result, or its error object: a tool's refusal (a result with
 * isError and the error object as its text), or the endpoint's before the tool (in the JSON-RPC
 * error's data, as the 403 of a scope the grant lacks carries it).
 */
export async function callTool(path: string, name: string, args: Record<string, unknown>, token: string) {
  const res = await mcpCall(path, 'tools/call', { name, arguments: args }, token);
  const result = res.body.result;
  const error = result?.isError ? JSON.parse(result.content[0].text) : res.body.error?.data;
  return { status: res.status, headers: res.headers, result, error };
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** What a client learns from the 401 of an MCP address: the resource and its authorization server's metadata. */
export async function discover(path: string) {
  const unauthorized = await mcpCall(path, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'oauth-test', version: '1' },
  });
  const challenge = unauthorized.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
  const resourceMetadata = metadataUrl ? await (await fetch(metadataUrl)).json() : {};
  const issuer = resourceMetadata.authorization_servers?.[0] ?? '';
  const server = issuer ? await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json() : {};
  return { unauthorized, challenge, metadataUrl, resourceMetadata, server };
}

/** Registers a client, from an address of its own (registrations are limited per address). */
export async function register(registrationEndpoint: string, redirectUri: string | string[], name = 'Test Assistant') {
  const res = await fetch(registrationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri].flat(),
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  return { status: res.status, body: await res.json() };
}

export function authorizeUrl(
  endpoint: string,
  o: { clientId: string; redirectUri: string; challenge: string; resource: string; scope: string; state: string },
) {
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    code_challenge: o.challenge,
    code_challenge_method: 'S256',
    resource: o.resource,
    scope: o.scope,
    state: o.state,
  }).toString();
  return url.toString();
}

/** A path and query of an absolute address of the app (the Person client takes paths). */
export function pathOf(url: string): string {
  const u = new URL(url, app().url);
  return u.pathname + u.search;
}

/**
 * The person's side over plain HTTP (for the tests beside the browser one): the authorization
 * request, the consent form answered with `fields`, and the address the browser lands on.
 */
export async function consentOverHttp(person: Person, authorize: string, fields: Record<string, string>) {
  const first = await person.get(pathOf(authorize));
  const consentPath = first.location ?? '';
  const screen = await person.get(consentPath);
  const answer = await person.post(consentPath, fields);
  const refresh = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(answer.html)?.[1]?.replaceAll('&amp;', '&');
  const back = refresh ? await person.get(pathOf(refresh)) : undefined;
  return { first, consentPath, screen, answer, landing: back?.location ? new URL(back.location) : undefined };
}
