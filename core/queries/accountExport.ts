/**
 * Everything stored about an account, as one JSON document (GET /api/account/export and the
 * dashboard's download): the account, its pages with their blocks and history, each day's
 * statistics (views, uniques, taps, Markdown reads, breakdowns) and taps per block, its images,
 * keys, sessions, claim links, mail links, webhooks with their recent deliveries and parked names.
 * Secrets never: keys, claim links, mail links, sessions and webhooks appear without the values
 * that unlock or sign them.
 */
import { claimsRepo } from '../../store/claims.js';
import { keysRepo } from '../../store/keys.js';
import { mailTokensRepo } from '../../store/mailTokens.js';
import { mediaRepo } from '../../store/media.js';
import { namesRepo } from '../../store/names.js';
import { pagesRepo } from '../../store/pages.js';
import { pageVersionsRepo } from '../../store/pageVersions.js';
import { sessionsRepo } from '../../store/sessions.js';
import { statsRepo } from '../../store/stats.js';
import { loadAccount } from '../commands/account.js';
import { mediaUrl } from '../commands/images.js';
import { presentEntry } from '../commands/pageHistory.js';
import { webhooksWithDeliveries } from '../commands/webhooks.js';
import { presentAccount } from '../presenters/account.js';
import { presentPage } from '../presenters/page.js';
import { presentDelivery, presentWebhook } from '../presenters/webhook.js';
import type { Services } from '../services.js';
import { linkStatusesOf } from './linkStatus.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export async function exportAccount(s: Services, accountId: string) {
  const account = await loadAccount(s, accountId);
  const [pages, keys, claims, parked, images, sessions, mailLinks] = await Promise.all([
    pagesRepo(s.db).listByAccount(account.id),
    keysRepo(s.db).listByAccount(account.id),
    claimsRepo(s.db).listByAccount(account.id),
    namesRepo(s.db).parkedBy(account.id),
    mediaRepo(s.db).listByAccount(account.id),
    sessionsRepo(s.db).listByAccount(account.id),
    mailTokensRepo(s.db).listByAccount(account.id),
  ]);
  const pageIds = pages.map((p) => p.id);
  const [daily, blockTaps, breakdowns, history, links, webhooks] = await Promise.all([
    statsRepo(s.db).dailyOfPages(pageIds),
    statsRepo(s.db).blockTapsOfPages(pageIds),
    statsRepo(s.db).breakdownsOfPages(pageIds),
    Promise.all(pageIds.map((id) => pageVersionsRepo(s.db).list(id, s.now()))),
    linkStatusesOf(s, pages),
    webhooksWithDeliveries(s, account.id),
  ]);
  return {
    exportedAt: s.now().toISOString(),
    account: presentAccount(account),
    claimedAt: iso(account.claimed_at),
    emailVerifiedAt: iso(account.email_verified_at),
    pages: pages.map((p) => presentPage(s.config, p, links)),
    statistics: pages.map((p) => ({
      pageId: p.id,
      username: p.username,
      daily: daily
        .filter((d) => d.page_id === p.id)
        .map((d) => ({
          date: d.day,
          views: d.views,
          uniques: d.uniques,
          taps: d.taps,
          markdownReads: d.markdown_reads,
        })),
      blockTaps: blockTaps
        .filter((t) => t.page_id === p.id)
        .map((t) => ({ date: t.day, blockId: t.block_id, taps: t.taps })),
      breakdowns: breakdowns
        .filter((b) => b.page_id === p.id)
        .map((b) => ({ date: b.day, dimension: b.dimension, value: b.value, views: b.count })),
    })),
    webhooks: webhooks.map(({ row, deliveries }) => ({
      ...presentWebhook(row, s.now()),
      deliveries: deliveries.map((d) => ({ ...presentDelivery(d), body: d.body })),
    })),
    history: pages.map((p, i) => ({ pageId: p.id, versions: history[i].map(presentEntry) })),
    images: images.map((m) => ({
      key: m.key,
      url: m.removed_at === null ? mediaUrl(s, m.key) : null,
      createdAt: m.created_at.toISOString(),
      removedAt: iso(m.removed_at),
    })),
    apiKeys: keys.map((k) => ({
      id: k.id,
      label: k.label,
      hint: k.hint,
      createdAt: k.created_at.toISOString(),
      createdBy: k.created_by,
      lastUsedAt: iso(k.last_used_at),
      revokedAt: iso(k.revoked_at),
    })),
    sessions: sessions.map((x) => ({
      createdAt: x.created_at.toISOString(),
      lastSeenAt: iso(x.last_seen_at),
      expiresAt: x.expires_at.toISOString(),
      endedAt: iso(x.revoked_at),
      userAgent: x.user_agent,
    })),
    claimLinks: claims.map((c) => ({
      createdAt: c.created_at.toISOString(),
      expiresAt: c.expires_at.toISOString(),
      usedAt: iso(c.used_at),
    })),
    mailLinks: mailLinks.map((l) => ({
      purpose: l.purpose === 'reset' ? ('password-reset' as const) : ('email-confirmation' as const),
      createdAt: l.created_at.toISOString(),
      expiresAt: l.expires_at.toISOString(),
      usedAt: iso(l.used_at),
    })),
    parkedNames: parked.map((n) => ({ username: n.username, parkedAt: n.parked_at.toISOString() })),
  };
}
