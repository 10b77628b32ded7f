/**
 * The statements of drawing share cards again after an upgrade (core/commands/redrawCards.ts):
 * the published pages whose share card was last drawn with another drawing than the current
 * one (`pages.card_version`, or none known), read a range of ids at a time.
 */
import type { Page } from '../../core/entities.js';
import type { Queryable } from './db.js';

const LIVE = 'is_published AND banned_at IS NULL';

export function cardVersionsRepo(db: Queryable) {
  return {
    /**
     * The published pages with ids in (after, last] whose card is not known to be of
     * `version`, in id order (with republishRepo's chunkEnd, one index range a batch).
     */
    async staleIn(version: string, after: string, last: string): Promise<Pick<Page, 'id' | 'username' | 'profile'>[]> {
      return db.query<Pick<Page, 'id' | 'username' | 'profile'>>(
        `SELECT id, username, profile FROM pages
         WHERE id > $2 AND id <= $3 AND ${LIVE} AND card_version IS DISTINCT FROM $1 ORDER BY id`,
        [version, after, last],
      );
    },

    /** Records that the pages' own cards of `version` are stored. */
    async mark(ids: readonly string[], version: string): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        'UPDATE pages SET card_version = $2 WHERE id = ANY($1::text[]) AND card_version IS DISTINCT FROM $2',
        [ids, version],
      );
    },
  };
}
