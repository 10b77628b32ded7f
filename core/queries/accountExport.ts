/**
 * Everything stored about an account, as one JSON document (GET /api/account/export and the
 * dashboard's download): the account, its pages with their blocks and history, each day's
 * statistics (views, uniques, taps, Markdown reads, breakdowns) and taps per block, its images,
 * keys, sessions, claim links, mail links, webhooks with their recent deliveries, parked names and
 * the proposals made on its pages.
 * Secrets never: keys, claim links, mail links, sessions and webhooks appear without the values
 * that unlock or sign them.
 */
import { claimsRepo } from '../../platform/store/claims.js';
import { keysRepo } from '../../platform/store/keys.js';
import { mailTokensRepo } from '../../platform/store/mailTokens.js';
import { mediaRepo } from '../../platform/store/media.js';
import { namesRepo } from '../../platform/store/names.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import { proposalsRepo } from '../../platform/store/proposals.js';
import { sessionsRepo } from '../../platform/store/sessions.js';
import { statsRepo } from '../../platform/store/stats.js';
import { loadAccount } from '../commands/account.js';
import { mediaUrl } from '../commands/images.js';
import { presentEntry } from '../commands/pageHistory.js';
import { presentProposalDetail } from '../commands/proposals.js';
import { webhooksWithDeliveries } from '../commands/webhooks.js';
import { presentAccount } from '../presenters/account.js';
import { presentPage } from '../presenters/page.js';
import { presentDelivery, presentWebhook } from '../presenters/webhook.js';
import { HISTORY_KEPT } from '../rules/pages.js';
import type { Services } from '../services.js';
import { lookupsOf } from './pageLookups.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export async function exportAccount(s: Services, accountId: string) {
  const account = await loadAccount(s, accountId);
  const [pages, keys, claims, parked, images, sessions, mailLinks, proposals] = await Promise.all([
    pagesRepo(s.db).listByAccount(account.id),
    keysRepo(s.db).listByAccount(account.id),
    claimsRepo(s.db).listByAccount(account.id),
    namesRepo(s.db).parkedBy(account.id),
    mediaRepo(s.db).listByAccount(account.id),
    sessionsRepo(s.db).listByAccount(account.id),
    mailTokensRepo(s.db).listByAccount(account.id),
    proposalsRepo(s.db).listByAccount(account.id),
  ]);
  const pageIds = pages.map((p) => p.id);
  const [daily, blockTaps, breakdowns, history, { links, states }, webhooks] = await Promise.all([
    statsRepo(s.db).dailyOfPages(pageIds),
    statsRepo(s.db).blockTapsOfPages(pageIds),
    statsRepo(s.db).breakdownsOfPages(pageIds),
    Promise.all(pageIds.map((id) => pageVersionsRepo(s.db, HISTORY_KEPT).list(id, s.now()))),
    lookupsOf(s, pages),
    webhooksWithDeliveries(s, account.id),
  ]);
  return {
    exportedAt: s.now().toISOString(),
    account: presentAccount(account),
    claimedAt: iso(account.claimedAt),
    emailVerifiedAt: iso(account.emailVerifiedAt),
    pages: pages.map((p) => presentPage(s.config, p, states, links)),
    statistics: pages.map((p) => ({
      pageId: p.id,
      username: p.username,
      daily: daily
        .filter((d) => d.pageId === p.id)
        .map((d) => ({
          date: d.day,
          views: d.views,
          uniques: d.uniques,
          taps: d.taps,
          markdownReads: d.markdownReads,
        })),
      blockTaps: blockTaps
        .filter((t) => t.pageId === p.id)
        .map((t) => ({ date: t.day, blockId: t.blockId, taps: t.taps })),
      breakdowns: breakdowns
        .filter((b) => b.pageId === p.id)
        .map((b) => ({ date: b.day, dimension: b.dimension, value: b.value, views: b.count })),
    })),
    webhooks: webhooks.map(({ row, deliveries }) => ({
      ...presentWebhook(row, s.now()),
      deliveries: deliveries.map((d) => ({ ...presentDelivery(d), body: d.body })),
    })),
    history: pages.map((p, i) => ({ pageId: p.id, versions: history[i].map(presentEntry) })),
    images: images.map((m) => ({
      key: m.key,
      url: m.removedAt === null ? mediaUrl(s, m.key) : null,
      createdAt: m.createdAt.toISOString(),
      removedAt: iso(m.removedAt),
    })),
    apiKeys: keys.map((k) => ({
      id: k.id,
      label: k.label,
      hint: k.hint,
      createdAt: k.createdAt.toISOString(),
      createdBy: k.createdBy,
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
      role: k.role,
      pages: k.pages,
    })),
    sessions: sessions.map((x) => ({
      createdAt: x.createdAt.toISOString(),
      lastSeenAt: iso(x.lastSeenAt),
      expiresAt: x.expiresAt.toISOString(),
      endedAt: iso(x.revokedAt),
      userAgent: x.userAgent,
      country: x.country,
    })),
    claimLinks: claims.map((c) => ({
      createdAt: c.createdAt.toISOString(),
      expiresAt: c.expiresAt.toISOString(),
      usedAt: iso(c.usedAt),
    })),
    mailLinks: mailLinks.map((l) => ({
      purpose: l.purpose === 'reset' ? ('password-reset' as const) : ('email-confirmation' as const),
      createdAt: l.createdAt.toISOString(),
      expiresAt: l.expiresAt.toISOString(),
      usedAt: iso(l.usedAt),
    })),
    parkedNames: parked.map((n) => ({ username: n.username, parkedAt: n.parkedAt.toISOString() })),
    proposals: proposals.map((p) => presentProposalDetail(p, s.config)),
  };
}
