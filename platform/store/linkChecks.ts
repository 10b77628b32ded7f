/** What the nightly link check found for each URL of the published link blocks. */

import type { LinkCheck, LinkOutcome, Page } from '../../core/entities.js';
import type { Queryable } from './db.js';
import { queryPages } from './pages.js';

/** A link_checks row as a LinkCheck. */
export const LINK_CHECK_COLUMNS = `url, checked_at AS "checkedAt", outcome, status, error, failed_nights AS "failedNights",
  broken_since AS "brokenSince"`;

/** Failures this close together count as one night (a run started twice the same night). */
const SAME_NIGHT = '12 hours';

export function linkChecksRepo(db: Queryable) {
  return {
    /** Records that the URLs are on published pages tonight (new ones start unchecked). */
    async seen(links: readonly { url: string; host: string }[], now: Date): Promise<void> {
      await db.query(
        `INSERT INTO link_checks (url, host, seen_at) SELECT unnest($1::text[]), unnest($2::text[]), $3
         ON CONFLICT (url) DO UPDATE SET seen_at = EXCLUDED.seen_at`,
        [links.map((l) => l.url), links.map((l) => l.host), now],
      );
    },

    /**
     * Records one night's results; returns the URLs that became broken with this night (failed
     * on the night before too) and those that answered again after being broken. A night the
     * site refused the checker (unknown) ends a run of failed nights, but not a breakage.
     */
    async record(
      results: readonly { url: string; outcome: LinkOutcome; status: number | null; error: string | null }[],
      now: Date,
    ): Promise<{ broken: string[]; recovered: string[] }> {
      if (results.length === 0) return { broken: [], recovered: [] };
      const rows = await db.query<{ url: string; was_broken: boolean; broken_since: Date | null }>(
        `WITH r AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS r(url, outcome, status, error)),
         old AS (SELECT c.url, c.broken_since IS NOT NULL AS was_broken FROM link_checks c JOIN r USING (url))
         UPDATE link_checks c SET checked_at = $5, outcome = r.outcome, status = r.status, error = r.error,
           failed_nights = CASE r.outcome
             WHEN 'failed' THEN CASE WHEN c.outcome = 'failed' AND c.checked_at > $5::timestamptz - interval '${SAME_NIGHT}'
               THEN c.failed_nights ELSE c.failed_nights + 1 END
             ELSE 0 END,
           broken_since = CASE r.outcome
             WHEN 'ok' THEN NULL
             WHEN 'failed' THEN CASE WHEN c.broken_since IS NOT NULL THEN c.broken_since
               WHEN c.failed_nights >= 1 AND NOT (c.outcome = 'failed' AND c.checked_at > $5::timestamptz - interval '${SAME_NIGHT}')
               THEN $5::timestamptz END
             ELSE c.broken_since END
         FROM r JOIN old USING (url) WHERE c.url = r.url
         RETURNING c.url, old.was_broken, c.broken_since`,
        [
          results.map((r) => r.url),
          results.map((r) => r.outcome),
          results.map((r) => r.status),
          results.map((r) => r.error),
          now,
        ],
      );
      return {
        broken: rows.filter((r) => !r.was_broken && r.broken_since !== null).map((r) => r.url),
        recovered: rows.filter((r) => r.was_broken && r.broken_since === null).map((r) => r.url),
      };
    },

    /** URLs broken whose `links.broken` has not gone out yet (this night's, or one a crash kept from going). */
    async unannounced(): Promise<string[]> {
      const rows = await db.query<{ url: string }>(
        `SELECT url FROM link_checks WHERE broken_since IS NOT NULL AND (announced_at IS NULL OR announced_at < broken_since)`,
      );
      return rows.map((r) => r.url);
    },

    async announced(urls: readonly string[], now: Date): Promise<void> {
      await db.query('UPDATE link_checks SET announced_at = $2 WHERE url = ANY($1::text[])', [urls, now]);
    },

    /** What is known of these URLs (checked ones only). */
    async find(urls: readonly string[]): Promise<LinkCheck[]> {
      if (urls.length === 0) return [];
      return db.query<LinkCheck>(
        `SELECT ${LINK_CHECK_COLUMNS} FROM link_checks WHERE url = ANY($1::text[]) AND checked_at IS NOT NULL`,
        [urls],
      );
    },

    /** Published, unbanned pages after `afterId` in id order, `limit` at a time: the pages whose links are checked. */
    async livePagesAfter(afterId: string, limit: number): Promise<Page[]> {
      return queryPages(
        db,
        `SELECT * FROM pages WHERE is_published AND banned_at IS NULL AND id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
    },

    /** URLs no published page named tonight are forgotten. */
    async forgetUnseen(before: Date): Promise<number> {
      const rows = await db.query('DELETE FROM link_checks WHERE seen_at < $1 RETURNING url', [before]);
      return rows.length;
    },
  };
}
