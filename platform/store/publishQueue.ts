/** The publish outbox: names whose files must be brought in line with the database. */

import type { Page } from '../../core/entities.js';
import type { Queryable } from './db.js';
import { servingDomainSql } from './pageDomains.js';
import { type PageRow, toPage } from './pages.js';

export interface QueuedPublish {
  username: string;
  generation: number;
  /** Failed attempts since the name was last queued. */
  attempts: number;
  /** When the name was last queued. */
  since: Date;
}

const QUEUED = 'username, generation, attempts, enqueued_at AS since';

/** A name already queued is queued again: a new generation, due now, its failures forgotten. */
const REQUEUE = `ON CONFLICT (username) DO UPDATE SET generation = publish_queue.generation + 1,
  enqueued_at = EXCLUDED.enqueued_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0, last_error = NULL`;

export function publishQueueRepo(db: Queryable) {
  return {
    /** How many names wait to be published, since when the oldest waits, and how many CDN purges wait. */
    async depth(): Promise<{ count: number; oldest: Date | null; purges: number }> {
      const [row] = await db.query<{ count: number; oldest: Date | string | null; purges: number }>(
        `SELECT count(*)::int AS count, min(enqueued_at) AS oldest,
           (SELECT count(*)::int FROM cdn_purges) AS purges FROM publish_queue`,
      );
      return { count: row.count, oldest: row.oldest === null ? null : new Date(row.oldest), purges: row.purges };
    },

    /** Records, in the caller's transaction, that a name's files must be (re)published. */
    async enqueue(username: string, now: Date) {
      await db.query(
        `INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) VALUES ($1, $2, $2)
         ${REQUEUE}`,
        [username, now],
      );
    },

    /**
     * Enqueues the names not waiting in the outbox already (whose publish, under way or due,
     * is left as it is); returns how many it enqueued.
     */
    async enqueueUnlessQueued(usernames: readonly string[], now: Date): Promise<number> {
      if (usernames.length === 0) return 0;
      const rows = await db.query<{ username: string }>(
        `INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) SELECT unnest($1::text[]), $2, $2
         ON CONFLICT (username) DO NOTHING RETURNING username`,
        [usernames, now],
      );
      return rows.length;
    },

    /** Enqueues every page's name (a full republish: files and route tables of all pages); returns how many. */
    async enqueueEveryPage(now: Date): Promise<number> {
      const rows = await db.query<{ username: string }>(
        `INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) SELECT username, $1, $1 FROM pages
         ${REQUEUE}
         RETURNING username`,
        [now],
      );
      return rows.length;
    },

    /** Names whose last publish failed and that wait for a retry. */
    async countFailing(): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM publish_queue WHERE attempts > 0');
      return row.n;
    },

    /** Like enqueue, for many names at once. */
    async enqueueMany(usernames: readonly string[], now: Date) {
      await db.query(
        `INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) SELECT unnest($1::text[]), $2, $2
         ${REQUEUE}`,
        [usernames, now],
      );
    },

    /**
     * Across processes, one publisher per name at a time (PostgreSQL only): waits for the
     * name's lock, held until the caller's transaction ends.
     */
    async lockName(username: string) {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`publish:${username}`]);
    },

    /** The page now holding the name (if any) and the outbox generation waiting for it (or null), in one read. */
    async withPage(username: string): Promise<{ queued: number | null; row: Page | undefined }> {
      const { queued, row } = await toPublish(db, username, null);
      return { queued, row };
    },

    /**
     * withPage, and the custom domain the page serves on at `serving.now` (pageDomains.ts), in
     * the same statement: what a publish reads.
     */
    toPublish: (username: string, serving: { now: Date; graceMs: number }) => toPublish(db, username, serving),

    /**
     * Which of the names wait in the outbox after a failed publish of their latest change (one
     * merely under way, not failed yet, is not among them).
     */
    async waiting(usernames: readonly string[]): Promise<Set<string>> {
      if (usernames.length === 0) return new Set();
      const rows = await db.query<{ username: string }>(
        'SELECT username FROM publish_queue WHERE username = ANY($1::text[]) AND attempts > 0',
        [usernames],
      );
      return new Set(rows.map((r) => r.username));
    },

    async find(username: string): Promise<QueuedPublish | undefined> {
      const [row] = await db.query<QueuedPublish>(`SELECT ${QUEUED} FROM publish_queue WHERE username = $1`, [
        username,
      ]);
      return row;
    },

    /** Names due for a (re)try, oldest first. */
    async due(now: Date, limit: number): Promise<QueuedPublish[]> {
      return db.query<QueuedPublish>(
        `SELECT ${QUEUED} FROM publish_queue WHERE next_attempt_at <= $1 ORDER BY next_attempt_at, username LIMIT $2`,
        [now, limit],
      );
    },

    /** Done, unless the name was enqueued again meanwhile (then its newer change still waits). */
    async complete(username: string, generation: number) {
      await db.query('DELETE FROM publish_queue WHERE username = $1 AND generation = $2', [username, generation]);
    },

    /**
     * Holds `generation` until `until` while the page's pictures are drawn after its publish (no
     * drain takes it before); the publish succeeded, so its failures are forgotten. A name
     * queued again meanwhile is due at once all the same.
     */
    async hold(username: string, generation: number, until: Date) {
      await db.query(
        `UPDATE publish_queue SET next_attempt_at = $3, attempts = 0, last_error = NULL
         WHERE username = $1 AND generation = $2`,
        [username, generation, until],
      );
    },

    /** A failed attempt at `generation`; a name queued again meanwhile keeps its own, newer state. */
    async failed(username: string, generation: number, error: string, retryAt: Date) {
      await db.query(
        `UPDATE publish_queue SET attempts = attempts + 1, last_error = $3, next_attempt_at = $4
         WHERE username = $1 AND generation = $2`,
        [username, generation, error.slice(0, 500), retryAt],
      );
    },

    async count(): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM publish_queue');
      return row.n;
    },
  };
}

async function toPublish(
  db: Queryable,
  username: string,
  serving: { now: Date; graceMs: number } | null,
): Promise<{ queued: number | null; row: Page | undefined; domain: string | null }> {
  const [found] = await db.query<PageRow & { queued_generation: number | null; serving_domain: string | null }>(
    `SELECT p.*, q.generation AS queued_generation,
       ${serving ? servingDomainSql('p.id', '$2', '$3') : 'NULL'} AS serving_domain
     FROM (SELECT 1) one LEFT JOIN publish_queue q ON q.username = $1 LEFT JOIN pages p ON p.username = $1`,
    serving ? [username, serving.now, serving.graceMs] : [username],
  );
  const { queued_generation, serving_domain, ...row } = found;
  return { queued: queued_generation, row: row.id ? toPage(row as PageRow) : undefined, domain: serving_domain };
}
