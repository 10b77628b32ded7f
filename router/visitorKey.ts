/**
 * What makes a visitor one unique of a page's day: the address (an IPv4 address, or the /64 of
 * an IPv6 one, which a single host may hold whole) and one of UNIQUES_PER_ADDRESS slots the
 * User-Agent falls in. So one address adds at most that many uniques to a page in a day, however
 * many User-Agents it sends, in every process at once and with nothing kept in memory; two
 * browsers behind one address are two uniques unless their User-Agents share a slot.
 */
import type { IncomingMessage } from 'node:http';

/** The most uniques one address can add to a page in a day. */
export const UNIQUES_PER_ADDRESS = 32;

/** The User-Agent's slot, 0 to UNIQUES_PER_ADDRESS - 1 (FNV-1a: nothing to keep secret in it). */
export function agentSlot(userAgent: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < userAgent.length; i++) {
    h ^= userAgent.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % UNIQUES_PER_ADDRESS;
}

/** The visitor's address: the X-Forwarded-For entry `hops` trusted proxies from the right, else the socket's. */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const forwarded = hops > 0 ? req.headers['x-forwarded-for'] : undefined;
  const entries = typeof forwarded === 'string' ? forwarded.split(',') : [];
  const client = entries[Math.max(0, entries.length - hops)]?.trim() ?? '';
  return client || req.socket.remoteAddress || '';
}
