/** Custom domains of pages, and the queue of their DNS checks (due by next_check_at). */
import type { DomainFound, PageDomain } from '../../core/entities.js';
import type { Queryable } from './db.js';

interface PageDomainRow {
  page_id: string;
  account_id: string;
  domain: string;
  state: PageDomain['state'];
  attached_at: Date;
  checks_since: Date;
  attempts: number;
  next_check_at: Date | null;
  checked_at: Date | null;
  found: DomainFound | string | null;
  problem: string | null;
  verified_at: Date | null;
  failing_since: Date | null;
}

function toPageDomain(row: PageDomainRow): PageDomain {
  return {
    pageId: row.page_id,
    accountId: row.account_id,
    domain: row.domain,
    state: row.state,
    attachedAt: row.attached_at,
    checksSince: row.checks_since,
    attempts: row.attempts,
    nextCheckAt: row.next_check_at,
    checkedAt: row.checked_at,
    found: typeof row.found === 'string' ? (JSON.parse(row.found) as DomainFound) : row.found,
    problem: row.problem,
    verifiedAt: row.verified_at,
    failingSince: row.failing_since,
  };
}

async function queryDomains(db: Queryable, sql: string, params: unknown[]): Promise<PageDomain[]> {
  const rows = await db.query<PageDomainRow>(sql, params);
  return rows.map(toPageDomain);
}

/** What one check recorded on the row. */
export interface CheckRecord {
  state: PageDomain['state'];
  checkedAt: Date | null;
  found: DomainFound | null;
  problem: string | null;
  verifiedAt: Date | null;
  failingSince: Date | null;
  nextCheckAt: Date | null;
  attempts: number;
}

/**
 * SQL: whether the row `alias` serves at `now` (a parameter): active, or failing for less than
 * `graceMs` (a parameter), as `isServing` in core/rules/customDomain.ts decides for one row.
 */
export function servingSql(alias: string, now: string, graceMs: string): string {
  return `(${alias}.state = 'active' OR (${alias}.state = 'failing'
    AND ${alias}.failing_since > ${now}::timestamptz - ${graceMs}::float8 * interval '1 millisecond'))`;
}

/** SQL for the domain a page (`pageId`, an SQL expression) serves on at `now`, or NULL (parameters as above). */
export function servingDomainSql(pageId: string, now: string, graceMs: string): string {
  return `(SELECT sd.domain FROM page_domains sd WHERE sd.page_id = ${pageId} AND ${servingSql('sd', now, graceMs)})`;
}

export function pageDomainsRepo(db: Queryable) {
  return {
    /** The domain the page serves on at `now` (active, or failing within the grace), or null. */
    async servingDomain(pageId: string, now: Date, graceMs: number): Promise<string | null> {
      const [row] = await db.query<{ domain: string | null }>(
        `SELECT ${servingDomainSql('$1', '$2', '$3')} AS domain`,
        [pageId, now, graceMs],
      );
      return row?.domain ?? null;
    },

    /** The names of the pages (to publish again when their address changes). */
    async pageNames(pageIds: readonly string[]): Promise<string[]> {
      const rows = await db.query<{ username: string }>('SELECT username FROM pages WHERE id = ANY($1::text[])', [
        pageIds,
      ]);
      return rows.map((r) => r.username);
    },

    /**
     * Whether a page serves on the domain at `now` (held, active or failing within the grace, and
     * the page published and not banned): one row by the held index, for a proxy's question before
     * it asks for a certificate.
     */
    async served(domain: string, now: Date, graceMs: number): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM page_domains d JOIN pages p ON p.id = d.page_id
         WHERE d.domain = $1 AND d.state <> 'pending' AND ${servingSql('d', '$2', '$3')}
           AND p.is_published AND p.banned_at IS NULL`,
        [domain, now, graceMs],
      );
      return rows.length > 0;
    },

    /** The name of the page holding the domain (active or failing, by the held index), or null. */
    async holderName(domain: string): Promise<string | null> {
      const [row] = await db.query<{ username: string }>(
        `SELECT p.username FROM page_domains d JOIN pages p ON p.id = d.page_id
         WHERE d.domain = $1 AND d.state <> 'pending'`,
        [domain],
      );
      return row?.username ?? null;
    },

    async ofPage(pageId: string): Promise<PageDomain | undefined> {
      const [row] = await queryDomains(db, 'SELECT * FROM page_domains WHERE page_id = $1', [pageId]);
      return row;
    },

    /** Every row of the domain, locked until the transaction ends. */
    async lockDomain(domain: string): Promise<PageDomain[]> {
      return queryDomains(db, 'SELECT * FROM page_domains WHERE domain = $1 ORDER BY page_id FOR UPDATE', [domain]);
    },

    /** Attaches a domain to the page (replacing its previous one), pending, with a check due now. */
    async attach(d: {
      pageId: string;
      accountId: string;
      domain: string;
      now: Date;
      leaseUntil: Date;
    }): Promise<PageDomain> {
      await db.query('DELETE FROM page_domains WHERE page_id = $1', [d.pageId]);
      const [row] = await queryDomains(
        db,
        `INSERT INTO page_domains (page_id, account_id, domain, state, attached_at, checks_since, next_check_at)
         VALUES ($1, $2, $3, 'pending', $4, $4, $5) RETURNING *`,
        [d.pageId, d.accountId, d.domain, d.now, d.leaseUntil],
      );
      return row;
    },

    /** A new run of checks of a pending domain, starting now (a repeated PUT); the job leaves it until `leaseUntil`. */
    async restartChecks(pageId: string, now: Date, leaseUntil: Date): Promise<void> {
      await db.query(
        `UPDATE page_domains SET checks_since = $2, attempts = 0, next_check_at = $3, claim = NULL
         WHERE page_id = $1 AND state = 'pending'`,
        [pageId, now, leaseUntil],
      );
    },

    /** Records a check of `domain` on the page (nothing when the page has another domain by now). */
    async record(pageId: string, domain: string, r: CheckRecord): Promise<PageDomain | undefined> {
      const [row] = await queryDomains(
        db,
        `UPDATE page_domains SET state = $2, checked_at = $3, found = $4, problem = $5, verified_at = $6,
           failing_since = $7, next_check_at = $8, attempts = $9, claim = NULL
         WHERE page_id = $1 AND domain = $10 RETURNING *`,
        [
          pageId,
          r.state,
          r.checkedAt,
          r.found && JSON.stringify(r.found),
          r.problem,
          r.verifiedAt,
          r.failingSince,
          r.nextCheckAt,
          r.attempts,
          domain,
        ],
      );
      return row;
    },

    /** A pending domain's failed check: one more attempt, the next at `retryAt` (none when null: the checks stop). */
    async failed(pageId: string, domain: string, retryAt: Date | null): Promise<void> {
      await db.query(
        `UPDATE page_domains SET attempts = attempts + 1, next_check_at = $3, claim = NULL
         WHERE page_id = $1 AND domain = $2 AND state = 'pending'`,
        [pageId, domain, retryAt],
      );
    },

    async detach(pageId: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM page_domains WHERE page_id = $1 RETURNING page_id', [pageId]);
      return rows.length > 0;
    },

    /** Takes up to `limit` rows whose check is due, moving their next check `leaseMs` on while it runs. */
    async claimDue(now: Date, limit: number, leaseMs: number, claim: string): Promise<PageDomain[]> {
      return queryDomains(
        db,
        `WITH due AS (
           SELECT page_id FROM page_domains WHERE next_check_at <= $1
           ORDER BY next_check_at, page_id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE page_domains d SET next_check_at = $3, claim = $4
         FROM due WHERE d.page_id = due.page_id RETURNING d.*`,
        [now, limit, new Date(now.getTime() + leaseMs), claim],
      );
    },
  };
}
