/**
 * Pages: one row per subdomain, the profile as a JSONB document and the blocks as json text
 * (only ever stored and loaded whole, and text is several times cheaper to read back).
 */

import type { Page } from '../../core/entities.js';
import type { Block, Profile } from '../../core/model.js';
import type { Queryable } from './db.js';

/** A row of `pages` as the database answers it. */
export interface PageRow {
  id: string;
  account_id: string;
  username: string;
  by_program: boolean;
  is_published: boolean;
  banned_at: Date | null;
  ban_reason: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  profile: Profile;
  blocks: Block[];
  first_viewed_at: Date | null;
  /** The next showFrom/showUntil boundary of a visible block, when the page is published again. */
  next_change_at: Date | null;
  /**
   * The render version (template and site addresses, renderer/versions.ts) the published files
   * were made with; null until first published. Named when it held the template's alone.
   */
  published_template_version: string | null;
  /** The drawing (OG_VERSION) of the share card the page last named as its own; null until known (migration 029). */
  card_version: string | null;
  /** Raised by every change of the page (migration 011). */
  version: number;
}

/** The row as the rest of the code sees it. */
export function toPage(row: PageRow): Page {
  return {
    id: row.id,
    accountId: row.account_id,
    username: row.username,
    byProgram: row.by_program,
    isPublished: row.is_published,
    bannedAt: row.banned_at,
    banReason: row.ban_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    profile: row.profile,
    blocks: row.blocks,
    firstViewedAt: row.first_viewed_at,
    nextChangeAt: row.next_change_at,
    renderVersion: row.published_template_version,
    cardVersion: row.card_version,
    version: row.version,
  };
}

/** Every row of a statement that returns whole `pages` rows, as pages. */
export async function queryPages(db: Queryable, sql: string, params: unknown[]): Promise<Page[]> {
  return (await db.query<PageRow>(sql, params)).map(toPage);
}

/** The first row of such a statement, as a page. */
async function queryPage(db: Queryable, sql: string, params: unknown[]): Promise<Page | undefined> {
  const [row] = await db.query<PageRow>(sql, params);
  return row && toPage(row);
}

/** A page to render with its blocks still as their json text (parsed where the page is rendered). */
/**
 * `domain`: the custom domain the page serves on (its address in its files), if any; `card`:
 * the hash of the share card its HTML names, absent for its own (as platform/publishing/pageFiles.ts).
 */
export type PageSource = Pick<Page, 'id' | 'username' | 'profile' | 'createdAt' | 'updatedAt'> & {
  blocksJson: string;
  domain?: string | null;
  card?: string | null;
};

export interface NewPage {
  id: string;
  accountId: string;
  username: string;
  byProgram: boolean;
  isPublished: boolean;
  createdBy: string;
  profile: Profile;
  blocks: Block[];
  now: Date;
  /** When a block next appears or disappears (its showFrom/showUntil), or null. */
  nextChangeAt: Date | null;
}

export function pagesRepo(db: Queryable) {
  return {
    async insert(p: NewPage): Promise<Page> {
      const [row] = await db.query<PageRow>(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, created_at, updated_at, created_by, profile, blocks, next_change_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8::jsonb, $9::json, $10) RETURNING *`,
        [
          p.id,
          p.accountId,
          p.username,
          p.byProgram,
          p.isPublished,
          p.now,
          p.createdBy,
          JSON.stringify(p.profile),
          JSON.stringify(p.blocks),
          p.nextChangeAt,
        ],
      );
      return toPage(row);
    },

    /** The page, only when it belongs to the account: another account's page is as absent as a missing one. */
    async findOwned(accountId: string, id: string): Promise<Page | undefined> {
      return queryPage(db, 'SELECT * FROM pages WHERE id = $1 AND account_id = $2', [id, accountId]);
    },

    /** Like findOwned, with the row locked until the transaction ends. */
    async lockOwned(accountId: string, id: string): Promise<Page | undefined> {
      return queryPage(db, 'SELECT * FROM pages WHERE id = $1 AND account_id = $2 FOR UPDATE', [id, accountId]);
    },

    async findByUsername(username: string): Promise<Page | undefined> {
      return queryPage(db, 'SELECT * FROM pages WHERE username = $1', [username]);
    },

    async listByAccount(accountId: string): Promise<Page[]> {
      return queryPages(db, 'SELECT * FROM pages WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    },

    async update(
      id: string,
      change: { profile: Profile; blocks: Block[]; isPublished: boolean; now: Date; nextChangeAt: Date | null },
    ): Promise<Page> {
      const [row] = await db.query<PageRow>(
        `UPDATE pages SET profile = $2::jsonb, blocks = $3::json, is_published = $4, updated_at = $5, next_change_at = $6,
           version = version + 1
         WHERE id = $1 RETURNING *`,
        [
          id,
          JSON.stringify(change.profile),
          JSON.stringify(change.blocks),
          change.isPublished,
          change.now,
          change.nextChangeAt,
        ],
      );
      return toPage(row);
    },

    /** Published pages whose next show-window boundary has passed, soonest first (or just `username`'s). */
    async takeScheduledChanges(
      now: Date,
      limit: number,
      username?: string,
    ): Promise<{ username: string; blocks: Block[] }[]> {
      return db.query<{ username: string; blocks: Block[] }>(
        `SELECT username, blocks FROM pages WHERE next_change_at <= $1 AND is_published AND banned_at IS NULL
           AND ($3::text IS NULL OR username = $3)
         ORDER BY next_change_at LIMIT $2`,
        [now, limit, username ?? null],
      );
    },

    async setNextChange(username: string, at: Date | null) {
      await db.query('UPDATE pages SET next_change_at = $2 WHERE username = $1', [username, at]);
    },

    /** Records the render version the page's published files were made with. */
    async setRenderVersion(id: string, version: string) {
      await db.query('UPDATE pages SET published_template_version = $2 WHERE id = $1', [id, version]);
    },

    /** Records the drawing of the share card the page names as its own, stored. */
    async setCardVersion(id: string, version: string) {
      await db.query('UPDATE pages SET card_version = $2 WHERE id = $1', [id, version]);
    },

    async usernamesOfAccounts(accountIds: readonly string[]): Promise<string[]> {
      const rows = await db.query<{ username: string }>(
        'SELECT username FROM pages WHERE account_id = ANY($1::text[])',
        [accountIds],
      );
      return rows.map((r) => r.username);
    },

    async setBan(username: string, ban: { at: Date; reason: string } | null): Promise<Page | undefined> {
      return queryPage(
        db,
        'UPDATE pages SET banned_at = $2, ban_reason = $3, version = version + 1 WHERE username = $1 RETURNING *',
        [username, ban?.at ?? null, ban?.reason ?? null],
      );
    },

    /** Deletes the page; its account's first view is then that of the pages it has left (or none). */
    async delete(id: string): Promise<void> {
      await db.query(
        `WITH gone AS (DELETE FROM pages WHERE id = $1 RETURNING account_id, first_viewed_at)
         UPDATE accounts SET first_viewed_at =
           (SELECT min(p.first_viewed_at) FROM pages p WHERE p.account_id = accounts.id AND p.id <> $1)
         FROM gone WHERE accounts.id = gone.account_id AND gone.first_viewed_at IS NOT NULL`,
        [id],
      );
    },
  };
}
