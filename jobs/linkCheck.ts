/**
 * The nightly link check, run after housekeeping: every URL of a visible link block on a
 * published page, checked once however many pages name it (platform/outbound/linkProbe.ts). Politely:
 * one request at a time per host, many hosts at once, a short deadline per link and one for the
 * whole run (links not reached by then wait for the next night). A URL that fails on two nights
 * in a row is broken: reads show it on the block (`linkStatus`), the dashboard marks it, and the
 * owner's webhooks hear `links.broken` once per page (a run that dies first leaves it to the
 * next night); it is cleared when the URL answers again.
 */
import pMap from 'p-map';
import type { LinkOutcome, Page } from '../core/entities.js';
import { emitEvent, pageObject } from '../core/events.js';
import type { Block } from '../core/model.js';
import type { Services } from '../core/services.js';
import { probeLink } from '../platform/outbound/linkProbe.js';
import { linkChecksRepo } from '../platform/store/linkChecks.js';

export interface LinkCheckOptions {
  /** Hosts checked at the same time (each host one link at a time). */
  hostsAtOnce?: number;
  /** The longest one link may take, HEAD and GET together. */
  perLinkMs?: number;
  /** The longest the whole run may take; links not reached by then are left for the next night. */
  runMs?: number;
}

export interface LinkCheckResult {
  pages: number;
  links: number;
  hosts: number;
  ok: number;
  failed: number;
  unknown: number;
  /** Links not checked before the run's deadline. */
  skipped: number;
  newlyBroken: number;
  recovered: number;
}

const PAGES_AT_ONCE = 500;
const RESULTS_PER_WRITE = 500;

type Link = Extract<Block, { type: 'link' }>;

function visibleLinks(page: Pick<Page, 'blocks'>): Link[] {
  return page.blocks.filter((b): b is Link => b.type === 'link' && b.visible);
}

export async function checkLinks(s: Services, o: LinkCheckOptions = {}): Promise<LinkCheckResult> {
  const { hostsAtOnce = 64, perLinkMs = 8_000, runMs = 3 * 3_600_000 } = o;
  const night = s.now();
  const runDeadline = Date.now() + runMs;
  const repo = linkChecksRepo(s.db);
  const result: LinkCheckResult = {
    pages: 0,
    links: 0,
    hosts: 0,
    ok: 0,
    failed: 0,
    unknown: 0,
    skipped: 0,
    newlyBroken: 0,
    recovered: 0,
  };

  // Every distinct URL, grouped by host.
  const byHost = new Map<string, string[]>();
  const seen = new Set<string>();
  for await (const pages of livePages(s)) {
    result.pages += pages.length;
    const fresh: { url: string; host: string }[] = [];
    for (const link of pages.flatMap(visibleLinks)) {
      if (seen.has(link.url)) continue;
      seen.add(link.url);
      const host = new URL(link.url).hostname;
      const urls = byHost.get(host);
      if (urls) urls.push(link.url);
      else byHost.set(host, [link.url]);
      fresh.push({ url: link.url, host });
    }
    if (fresh.length > 0) await repo.seen(fresh, night);
  }
  result.links = seen.size;
  result.hosts = byHost.size;

  let pending: { url: string; outcome: LinkOutcome; status: number | null; error: string | null }[] = [];
  const write = async () => {
    const batch = pending;
    pending = [];
    const changed = await repo.record(batch, night);
    result.newlyBroken += changed.broken.length;
    result.recovered += changed.recovered.length;
  };
  await pMap(
    byHost.values(),
    async (urls) => {
      for (const url of urls) {
        if (Date.now() > runDeadline) {
          result.skipped++;
          continue;
        }
        const probe = await probeLink(s.fetcher, url, perLinkMs);
        result[probe.outcome]++;
        pending.push({ url, ...probe });
        if (pending.length >= RESULTS_PER_WRITE) await write();
      }
    },
    { concurrency: hostsAtOnce },
  );
  await write();

  const broken = await repo.unannounced();
  if (broken.length > 0) await announceBroken(s, new Set(broken));
  await repo.announced(broken, night);
  await repo.forgetUnseen(night);
  s.log.info(
    result,
    `link check: ${result.links} links on ${result.hosts} hosts; ${result.failed} failing, ${result.newlyBroken} newly broken, ${result.recovered} recovered, ${result.skipped} left for tomorrow`,
  );
  return result;
}

/** Published pages in id order, a batch at a time. */
async function* livePages(s: Services): AsyncGenerator<Page[]> {
  let after = '';
  for (;;) {
    const pages = await linkChecksRepo(s.db).livePagesAfter(after, PAGES_AT_ONCE);
    if (pages.length === 0) return;
    yield pages;
    after = pages[pages.length - 1].id;
    if (pages.length < PAGES_AT_ONCE) return;
  }
}

/** One `links.broken` event per page that names a link broken (and not yet announced), listing those links. */
async function announceBroken(s: Services, broken: ReadonlySet<string>): Promise<void> {
  const checks = new Map((await linkChecksRepo(s.db).find([...broken])).map((c) => [c.url, c]));
  for await (const pages of livePages(s)) {
    for (const page of pages) {
      const links = visibleLinks(page).filter((l) => broken.has(l.url));
      if (links.length === 0) continue;
      await s.db.transaction(async (tx) =>
        emitEvent(tx, s, page.accountId, 'links.broken', {
          page: await pageObject(tx, s, page),
          links: links.map((l) => {
            const check = checks.get(l.url);
            return {
              blockId: l.id,
              label: l.label,
              url: l.url,
              status: check?.status ?? null,
              error: check?.error ?? null,
              since: check?.brokenSince ? new Date(check.brokenSince).toISOString() : null,
            };
          }),
        }),
      );
    }
  }
  s.webhooks.kick();
}
