/** Requests the topology tests send: to one API process, and to a page host through Varnish or a router. */
import { type HostAnswer, hostRequest, randomAddress } from '../helpers/client.js';
import { PAGE_DOMAIN } from './cluster.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function apiCall(
  base: string,
  method: string,
  path: string,
  o: { body?: unknown; key?: string; timeoutMs?: number } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'user-agent': 'linkpage-topology/1.0', 'x-forwarded-for': randomAddress() };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, headers: res.headers, body };
}

/** A request to `<name>.<PAGE_DOMAIN>` at a port (Varnish or a router). */
export function pageCall(
  port: number,
  name: string,
  path: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<HostAnswer> {
  return hostRequest(port, `${name}.${PAGE_DOMAIN}`, path, o);
}

/** Polls `check` until it returns true, or fails after `ms` with `what`. */
export async function eventually(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
