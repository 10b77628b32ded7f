/**
 * What a view pixel or a Markdown read tells about its visitor, worked out per request and
 * then forgotten: the country from the address and device, browser and OS from the User-Agent
 * (core/visitors.ts; the address is not kept), bots by `isbot`, the referring
 * site, and the UTM parameters of the page URL.
 */
import { isbot } from 'isbot';
import { readerOf } from '../core/rules/readers.js';
import { campaignOf, DIRECT, inAppSite, siteOf } from '../core/rules/referrers.js';
import { agentParts, countryOf, UNKNOWN } from '../core/visitors.js';

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
  /** The app whose in-app browser this is (its site), or null. */
  inApp: string | null;
  device: string;
  browser: string;
  os: string;
}

/** Distinct User-Agents and Referers kept worked out: a parse costs more than a view otherwise does. */
const KEPT = 2000;

export function createVisits(): Visits {
  const agents = new Map<string, Agent>();
  const referers = new Map<string, { referrer: string | null; campaign: string | null }>();

  /** The referring site (null: none, or the page itself) and, when it is the page, its campaign. */
  function refererOf(referer: string, host: string) {
    const key = `${host} ${referer}`;
    let r = referers.get(key);
    if (r) return r;
    r = { referrer: null, campaign: null };
    const from = urlOf(referer);
    if (from && (from.protocol === 'https:' || from.protocol === 'http:')) {
      if (from.hostname === host.toLowerCase().replace(/:\d+$/, '')) r.campaign = campaignOf(from.searchParams);
      else r.referrer = siteOf(from.hostname);
    }
    if (referers.size >= KEPT) referers.clear();
    referers.set(key, r);
    return r;
  }

  function agentOf(ua: string): Agent {
    let a = agents.get(ua);
    if (a) return a;
    if (!ua) a = { bot: false, inApp: null, device: UNKNOWN, browser: UNKNOWN, os: UNKNOWN };
    else a = { bot: isbot(ua), inApp: inAppSite(ua), ...agentParts(ua) };
    if (agents.size >= KEPT) agents.clear();
    agents.set(ua, a);
    return a;
  }

  return {
    /**
     * A view's facts, or null for a bot. `referer` is the pixel request's Referer: the page
     * itself (its query carries the UTM parameters) or, when another site, the referrer.
     * `search` is the pixel's own query string, whose UTM parameters come first.
     */
    view(address: string, ua: string, referer: string, host: string, search: string): ViewFacts | null {
      const agent = agentOf(ua);
      if (agent.bot) return null;
      const from = referer ? refererOf(referer, host) : null;
      const own = search.includes('utm_') ? campaignOf(new URLSearchParams(search)) : null;
      return {
        referrer: from?.referrer ?? agent.inApp ?? DIRECT,
        country: countryOf(address),
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        campaign: own ?? from?.campaign ?? null,
      };
    },

    /** Whether the User-Agent is a bot's, by the rule views follow: its taps are not counted either. */
    bot(ua: string): boolean {
      return agentOf(ua).bot;
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

/**
 * What the page host asks about a request. `view` answers null for a bot (not counted), as
 * `bot` tells for taps, and undefined for a view counted without breakdowns (the view pixel before them, as the
 * benchmark's baseline runs it).
 */
export interface Visits {
  view(address: string, ua: string, referer: string, host: string, search: string): ViewFacts | null | undefined;
  bot(ua: string): boolean;
  reader(ua: string): string;
}
