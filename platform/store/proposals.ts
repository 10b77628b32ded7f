/** The statements of proposed changes (migration 033). */
import type { Proposal, ProposalStatus } from '../../core/entities.js';
import type { Queryable } from './db.js';

const COLUMNS = `id, page_id AS "pageId", base_version AS "baseVersion", kind, input, profile, blocks,
  is_published AS "isPublished", summary, author, changed_by AS "changedBy", user_agent AS "userAgent",
  created_at AS "createdAt", status, note, decided_at AS "decidedAt", decided_by AS "decidedBy", version`;

export function proposalsRepo(db: Queryable) {
  return {
    async insert(p: Omit<Proposal, 'status' | 'note' | 'decidedAt' | 'decidedBy' | 'version'>): Promise<Proposal> {
      const [row] = await db.query<Proposal>(
        `INSERT INTO proposals (id, page_id, base_version, kind, input, profile, blocks, is_published, summary,
           author, changed_by, user_agent, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
        [
          p.id,
          p.pageId,
          p.baseVersion,
          p.kind,
          JSON.stringify(p.input),
          JSON.stringify(p.profile),
          JSON.stringify(p.blocks),
          p.isPublished,
          p.summary,
          p.author,
          p.changedBy,
          p.userAgent,
          p.createdAt,
        ],
      );
      return row;
    },

    /** The page's proposals: the pending ones first, then the decided, newest first in each. */
    async list(pageId: string, limit: number): Promise<Proposal[]> {
      return db.query<Proposal>(
        `SELECT ${COLUMNS} FROM proposals WHERE page_id = $1
         ORDER BY status = 'pending' DESC, created_at DESC, id DESC LIMIT $2`,
        [pageId, limit],
      );
    },

    /** Every proposal on the account's pages, page by page, oldest first (the account's export). */
    async listByAccount(accountId: string): Promise<Proposal[]> {
      return db.query<Proposal>(
        `SELECT ${COLUMNS} FROM proposals WHERE page_id IN (SELECT id FROM pages WHERE account_id = $1)
         ORDER BY page_id, created_at, id`,
        [accountId],
      );
    },

    async find(pageId: string, id: string): Promise<Proposal | undefined> {
      const [row] = await db.query<Proposal>(`SELECT ${COLUMNS} FROM proposals WHERE page_id = $1 AND id = $2`, [
        pageId,
        id,
      ]);
      return row;
    },

    /** How many proposals wait on each of the account's pages that has any. */
    async pendingByPage(accountId: string): Promise<Map<string, number>> {
      const rows = await db.query<{ pageId: string; n: number }>(
        `SELECT q.page_id AS "pageId", count(*)::int AS n FROM proposals q JOIN pages p ON p.id = q.page_id
         WHERE p.account_id = $1 AND q.status = 'pending' GROUP BY q.page_id`,
        [accountId],
      );
      return new Map(rows.map((r) => [r.pageId, r.n]));
    },

    async countPending(pageId: string): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM proposals WHERE page_id = $1 AND status = 'pending'`,
        [pageId],
      );
      return row.n;
    },

    /** Marks a pending proposal decided; false when it was not pending (decided meanwhile). */
    async decide(
      id: string,
      d: { status: Exclude<ProposalStatus, 'pending'>; note: string; by: string; now: Date },
    ): Promise<boolean> {
      const rows = await db.query(
        `UPDATE proposals SET status = $2, note = $3, decided_by = $4, decided_at = $5
         WHERE id = $1 AND status = 'pending' RETURNING id`,
        [id, d.status, d.note, d.by, d.now],
      );
      return rows.length > 0;
    },

    /** The page's version an approval made. */
    async approved(id: string, version: number): Promise<void> {
      await db.query('UPDATE proposals SET version = $2 WHERE id = $1', [id, version]);
    },

    /** Drops the proposals decided before `before` (housekeeping). */
    async forgetDecided(before: Date): Promise<void> {
      await db.query(`DELETE FROM proposals WHERE status <> 'pending' AND decided_at < $1`, [before]);
    },

    /** Back to waiting: an approval whose change was refused. */
    async reopen(id: string): Promise<void> {
      await db.query(`UPDATE proposals SET status = 'pending', decided_by = NULL, decided_at = NULL WHERE id = $1`, [
        id,
      ]);
    },
  };
}
