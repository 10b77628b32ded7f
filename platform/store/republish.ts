/**
 * The statements of republishing after a template or a site address changed (core/commands/republish.ts).
 * `versions` is the JSON object of the current render versions by template id
 * (renderer/versions.ts); a page is stale when it is published, not banned, and its files were
 * rendered with another version than the current one of its template.
 *
 * A large run writes pages in two passes: their files first, then their compressed copies. A
 * page between the two records its current version with WITHOUT_COPIES after it; the first pass
 * takes the pages `stale` in the narrow sense, the second those `withoutCopies`, and a run that
 * does both at once (`any`) takes both.
 */
import type { Queryable } from './db.js';
import { servingDomainSql } from './pageDomains.js';
import type { PageSource } from './pages.js';

/** The mark after the version of a page whose files are current but whose compressed copies are not made yet. */
export const WITHOUT_COPIES = '~without-copies';

/** Which pages a pass of the republish job takes. */
export type Staleness = 'any' | 'stale' | 'withoutCopies';

const CURRENT = `($1::jsonb ->> (profile ->> 'templateId'))`;
const LIVE = 'is_published AND banned_at IS NULL';
const WHERE: Record<Staleness, string> = {
  any: `${LIVE} AND published_template_version IS DISTINCT FROM ${CURRENT}`,
  stale: `${LIVE} AND published_template_version IS DISTINCT FROM ${CURRENT}
    AND published_template_version IS DISTINCT FROM ${CURRENT} || '${WITHOUT_COPIES}'`,
  withoutCopies: `${LIVE} AND published_template_version = ${CURRENT} || '${WITHOUT_COPIES}'`,
};

export function republishRepo(db: Queryable) {
  return {
    /**
     * The stale pages by template, and how many of them have their files but not their compressed
     * copies yet: what a run needs to know before its first batch, in one scan of the pages (a
     * scan of every page's profile took ~50 ms on 10,000 pages, and an API request in the same
     * process waits for it).
     */
    async staleByTemplate(versions: string): Promise<{ template: string; stale: number; withoutCopies: number }[]> {
      return db.query<{ template: string; stale: number; withoutCopies: number }>(
        `SELECT profile ->> 'templateId' AS template, count(*)::int AS stale,
           (count(*) FILTER (WHERE ${WHERE.withoutCopies}))::int AS "withoutCopies"
         FROM pages WHERE ${WHERE.any} GROUP BY 1 ORDER BY 1`,
        [versions],
      );
    },

    /**
     * The last id of the next `size` pages after `after` in key order (null: none left). With
     * staleIn it reads one index range per batch, where "the next 100 stale pages" made the
     * planner scan every page left.
     */
    async chunkEnd(after: string, size: number): Promise<string | null> {
      const [{ last }] = await db.query<{ last: string | null }>(
        'SELECT max(id) AS last FROM (SELECT id FROM pages WHERE id > $1 ORDER BY id LIMIT $2) chunk',
        [after, size],
      );
      return last;
    },

    /**
     * The stale pages with ids in (after, last], in id order; `claimed` when a run that died
     * claimed it (its files may be written already).
     */
    async staleIn(
      versions: string,
      after: string,
      last: string,
      which: Staleness,
      /** When and with which grace a page's custom domain is its address. */
      serving: { now: Date; graceMs: number },
    ): Promise<(PageSource & { claimed: boolean; cardVersion: string | null })[]> {
      return db.query<PageSource & { claimed: boolean; cardVersion: string | null }>(
        `SELECT id, username, profile, created_at AS "createdAt", updated_at AS "updatedAt", blocks::text AS "blocksJson", card_version AS "cardVersion",
           republish_claimed_at IS NOT NULL AS claimed, ${servingDomainSql('pages.id', '$4', '$5')} AS domain
         FROM pages WHERE id > $2 AND id <= $3 AND ${WHERE[which]} ORDER BY id`,
        [versions, after, last, serving.now, serving.graceMs],
      );
    },

    /** Claims a batch before its files are written. */
    async claim(ids: readonly string[], now: Date) {
      await db.query('UPDATE pages SET republish_claimed_at = $2 WHERE id = ANY($1::text[])', [ids, now]);
    },

    /**
     * Records the current render version of each page's template as the one its files were
     * rendered with (marked WITHOUT_COPIES when `copiesMade` is false), and ends the claim.
     */
    async markRendered(versions: string, ids: readonly string[], copiesMade = true) {
      await db.query(
        `UPDATE pages SET published_template_version = ${CURRENT} || $3, republish_claimed_at = NULL
         WHERE id = ANY($2::text[])`,
        [versions, ids, copiesMade ? '' : WITHOUT_COPIES],
      );
    },

    /** The names of the pages among `ids` edited, unpublished or banned since `readAt`. */
    async changedSince(ids: readonly string[], readAt: Date): Promise<string[]> {
      const rows = await db.query<{ username: string }>(
        `SELECT username FROM pages WHERE id = ANY($1::text[]) AND (updated_at > $2 OR NOT is_published OR banned_at IS NOT NULL)`,
        [ids, readAt],
      );
      return rows.map((r) => r.username);
    },
  };
}
