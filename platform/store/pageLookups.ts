/**
 * What reads show beside pages' rows, asked in one statement: which of them wait in the outbox
 * after a failed publish (platform/store/publishQueue.ts), the custom domain each serves on
 * (platform/store/pageDomains.ts), and what the link check found for their links (platform/store/linkChecks.ts).
 *
 * Asked apart they were three statements on PGlite (two for pages without link blocks) of
 * ~0.3–0.8 ms each measured alone, a good part of it each statement's own cost (six protocol
 * messages through the WebAssembly, the parse, the plan: ~0.1–0.2 ms for `SELECT $1::int`):
 * asked as one they take two thirds of the time (bench/README.md, "One statement for a page's
 * lookups").
 */
import type { LinkCheck } from '../../core/entities.js';
import type { Queryable } from './db.js';
import { LINK_CHECK_COLUMNS } from './linkChecks.js';
import { servingSql } from './pageDomains.js';

export interface PageLookupsQuery {
  usernames: readonly string[];
  pageIds: readonly string[];
  /** The link blocks' URLs (none: no link check is read). */
  urls: readonly string[];
  /** When a failing domain's grace is measured from, and the grace. */
  now: Date;
  graceMs: number;
}

export interface PageLookups {
  /** The names whose latest change failed to publish so far. */
  pending: Set<string>;
  /** The domain each page serves on, by page id (pages without one are left out). */
  domains: Map<string, string>;
  /** The URLs the link check has checked, with what it found. */
  links: LinkCheck[];
}

/** A link check as json_agg gives it: its times as strings. */
type LinkCheckJson = Omit<LinkCheck, 'checkedAt' | 'brokenSince'> & { checkedAt: string; brokenSince: string | null };

export function pageLookupsRepo(db: Queryable) {
  return {
    async of(q: PageLookupsQuery): Promise<PageLookups> {
      const [row] = await db.query<{
        pending: string[];
        domains: [string, string][] | null;
        links: LinkCheckJson[] | null;
      }>(
        `SELECT
           ARRAY(SELECT username FROM publish_queue WHERE username = ANY($1::text[]) AND attempts > 0) AS pending,
           (SELECT json_agg(json_build_array(d.page_id, d.domain)) FROM page_domains d
            WHERE d.page_id = ANY($2::text[]) AND ${servingSql('d', '$3', '$4')}) AS domains,
           (SELECT json_agg(c) FROM (SELECT ${LINK_CHECK_COLUMNS} FROM link_checks
            WHERE url = ANY($5::text[]) AND checked_at IS NOT NULL) c) AS links`,
        [q.usernames, q.pageIds, q.now, q.graceMs, q.urls],
      );
      return {
        pending: new Set(row.pending),
        domains: new Map(row.domains ?? []),
        links: (row.links ?? []).map((c) => ({
          ...c,
          checkedAt: new Date(c.checkedAt),
          brokenSince: c.brokenSince === null ? null : new Date(c.brokenSince),
        })),
      };
    },
  };
}
