/**
 * The scale bench's data (bench/scale.ts): a database of its own on the PostgreSQL server,
 * migrated by the store's own code, a sample of pages made through the real create command,
 * then the rest cloned from that sample in bulk (generate_series, a chunk at a time): the rows
 * the create command writes (account, page, its history, an API key) and a month of views
 * (daily rollups, breakdowns, taps, the monthly breakdowns the flushes keep).
 */
import pg from 'pg';
import * as v from 'valibot';
import { type CreatedAgentPage, createAgentPage } from '../core/commands/createAgentPage.js';
import { CreatePageRequest } from '../core/schemas/agent.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import type { Services } from '../core/services.js';
import type { Database } from '../platform/store/db.js';

/** The server of `SCALE_DATABASE_URL` (a server, no database name), or the one CI starts. */
export const SERVER = process.env.SCALE_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432';
export const DATABASE = 'linkpage_scale';

/** Drops and creates the bench's own database (never another). */
export async function resetDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return `${SERVER}/${DATABASE}`;
}

/** Blocks of a realistic page: mostly links (some with a short path), a heading, socials, a messenger, an embed. */
function sampleBlocks(i: number) {
  const links = 4 + (i % 9);
  const blocks: Record<string, unknown>[] = [{ type: 'text', content: `Hello from page ${i}`, variant: 'heading' }];
  for (let j = 0; j < links; j++) {
    blocks.push({
      type: 'link',
      label: `My link number ${j + 1}`,
      url: `https://example.com/${i}/item-${j}?ref=bio`,
      ...(j % 3 === 0 ? { note: 'New this week, have a look' } : {}),
      ...(j === 0 ? { path: 'shop' } : {}),
      ...(j === 1 && i % 4 === 0 ? { featured: true } : {}),
    });
  }
  blocks.push({
    type: 'socialRow',
    items: [
      { platform: 'instagram', url: `https://instagram.com/page${i}` },
      { platform: 'tiktok', url: `https://tiktok.com/@page${i}` },
    ],
  });
  if (i % 3 === 0) blocks.push({ type: 'messenger', platform: 'telegram', handle: `page${i}` });
  if (i % 5 === 0)
    blocks.push({ type: 'embed', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
  if (i % 2 === 0) blocks.push({ type: 'text', content: 'Thanks for visiting. New things every week, links below.' });
  return blocks;
}

export interface Sample {
  created: CreatedAgentPage[];
  ms: number;
}

/** `count` pages made one after another through the agent create command (as POST /api/agent/pages), each published. */
export async function createSample(s: Services, count: number, at = 0): Promise<Sample> {
  const created: CreatedAgentPage[] = [];
  const started = performance.now();
  for (let i = at; i < at + count; i++) {
    const input = v.parse(CreatePageRequest, {
      username: `sample-${i}`,
      page: {
        displayName: `Sample ${i}`,
        bio: 'Maker of things. Links to my shop, my videos and my newsletter below.',
        templateId: TEMPLATE_IDS[i % TEMPLATE_IDS.length],
        blocks: sampleBlocks(i),
      },
    });
    const caller = { accountId: null, userAgent: 'scale-bench', address: '127.0.0.1', via: 'no key' };
    created.push(await createAgentPage(s, caller, input, { limits: {} }));
  }
  return { created, ms: performance.now() - started };
}

/** The baseline of the create rate: the same rows (account, page, history, key, outbox) as plain INSERTs, a transaction each. */
export async function rawInserts(db: Database, count: number): Promise<number> {
  const [t] = await db.query<{ profile: string; blocks: string }>(
    `SELECT profile::text AS profile, blocks::text AS blocks FROM pages WHERE username = 'sample-0'`,
  );
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const id = `f${i.toString(16).padStart(23, '0')}`;
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO accounts (id, locale, created_by) VALUES ($1, 'en', 'raw')`, [id]);
      await tx.query(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, created_by, profile, blocks)
         VALUES ($1, $1, $2, true, true, 'raw', $3::jsonb, $4::json)`,
        [id, `raw-${i}`, t.profile, t.blocks],
      );
      await tx.query(
        `INSERT INTO page_versions (page_id, version, created_at, changed_by, summary, profile, blocks, is_published)
         VALUES ($1, 1, now(), 'raw', 'Page created.', $2::jsonb, $3::json, true)`,
        [id, t.profile, t.blocks],
      );
      await tx.query(`INSERT INTO api_keys (id, account_id, hash, hint) VALUES ($1, $1, md5($1), 'raw')`, [id]);
      await tx.query(`INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) VALUES ($1, now(), now())`, [
        `raw-${i}`,
      ]);
    });
  }
  const ms = performance.now() - started;
  await db.query(`DELETE FROM publish_queue WHERE username LIKE 'raw-%'`);
  await db.query(`DELETE FROM accounts WHERE created_by = 'raw'`);
  return ms;
}

/** The API key of bulk page g (what its account's key row hashes). */
export const bulkKey = (g: number) => `svc_sk_benchscale${String(g).padStart(33, '0')}`;
export const bulkName = (g: number) => `page-${g}`;
/** The first and last ids of bulk rows g in [from, to) (as ID makes them in SQL). */
export const idRange = (prefix: string, from: number, to: number) =>
  [from, to - 1].map((g) => `${prefix}${g.toString(16).padStart(23, '0')}`);
const ID = (prefix: string) => `'${prefix}' || lpad(to_hex(g), 23, '0')`;
/** Provisional accounts housekeeping will take: 1 in 1,000 made 75 days ago and never viewed (deleted), 1 in 1,000 45 days ago (unpublished). */
const AGE_DAYS = `CASE WHEN g % 1000 = 7 THEN 75 WHEN g % 1000 = 8 THEN 45 ELSE 1 + g % 700 END`;
const PROVISIONAL = `(g % 10 >= 7 OR g % 1000 IN (7, 8))`;
const VIEWED = `(g % 1000 NOT IN (7, 8) AND g % 20 <> 3)`;

/** Pages g in [from, to): accounts, pages, history, keys, cloned from the sample's rows. */
async function loadChunk(db: Database, from: number, to: number, sampleIds: string[], passwordHash: string) {
  const samples = sampleIds.length;
  const range = [from, to - 1, samples];
  await db.query(
    `INSERT INTO accounts (id, email, password_hash, locale, created_at, claimed_at, created_by, program_pages_made, email_verified_at,
                           first_viewed_at)
     SELECT ${ID('a')}, CASE WHEN ${PROVISIONAL} THEN NULL ELSE 'user' || g || '@example.com' END,
            CASE WHEN ${PROVISIONAL} THEN NULL ELSE $4 END, 'en', now() - make_interval(days => ${AGE_DAYS}),
            CASE WHEN ${PROVISIONAL} THEN NULL ELSE now() - make_interval(days => ${AGE_DAYS}) + interval '1 hour' END,
            'scale-bench', 1, CASE WHEN ${PROVISIONAL} THEN NULL ELSE now() - make_interval(days => ${AGE_DAYS}) + interval '1 hour' END,
            CASE WHEN ${VIEWED} THEN now() - make_interval(days => ${AGE_DAYS}) + interval '2 hours' END
     FROM generate_series($1::int, $2::int) g WHERE $3::int > 0`,
    [...range, passwordHash],
  );
  // Each page is a sample page's row under its own id and name; a third have one or two edits in their history.
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, created_at, updated_at, created_by, profile,
                        blocks, first_viewed_at, published_template_version, next_change_at, version)
     SELECT ${ID('c')}, ${ID('a')}, 'page-' || g, true, true, now() - make_interval(days => ${AGE_DAYS}),
            now() - make_interval(days => ${AGE_DAYS}) + make_interval(hours => g % 3),
            'scale-bench', jsonb_set(t.profile, '{displayName}', to_jsonb('Page ' || g)), t.blocks,
            CASE WHEN ${VIEWED} THEN now() - make_interval(days => ${AGE_DAYS}) + interval '2 hours' END,
            t.published_template_version, NULL, 1 + g % 3
     FROM generate_series($1::int, $2::int) g
     JOIN unnest($4::text[]) WITH ORDINALITY sample(id, k) ON sample.k - 1 = g % $3 JOIN pages t ON t.id = sample.id`,
    [...range, sampleIds],
  );
  await db.query(
    `INSERT INTO page_versions (page_id, version, created_at, changed_by, user_agent, summary, profile, blocks, is_published)
     SELECT p.id, n, p.created_at + make_interval(hours => n - 1), 'no key', 'scale-bench',
            CASE WHEN n = 1 THEN 'Page created.' ELSE 'Bio changed.' END, p.profile, p.blocks, true
     FROM pages p, generate_series(1, p.version) n
     WHERE p.id >= $1 AND p.id <= $2`,
    idRange('c', from, to),
  );
  await db.query(
    `INSERT INTO api_keys (id, account_id, hash, hint, label, created_at, created_by)
     SELECT ${ID('d')}, ${ID('a')}, encode(sha256(convert_to(k, 'UTF8')), 'hex'), left(k, 11) || '…' || right(k, 4),
            'Created with the account', now(), 'scale-bench'
     FROM generate_series($1::int, $2::int) g, LATERAL (SELECT 'svc_sk_benchscale' || lpad(g::text, 33, '0') AS k) key`,
    [from, to - 1],
  );
}

/** A month of views for pages g in [from, to): a viewed page is seen on one day in ten, with its breakdowns and taps. */
async function loadViews(db: Database, from: number, to: number) {
  const days = `generate_series(0, 29) d`;
  const seen = `${VIEWED} AND (g * 7 + d) % 10 = 0`;
  await db.query(
    `INSERT INTO page_stats_daily (page_id, day, views, uniques, taps, markdown_reads)
     SELECT ${ID('c')}, current_date - d, 1 + (g + d) % 40, 1 + (g + d) % 30, (g + d) % 9, (g + d) % 3
     FROM generate_series($1::int, $2::int) g, ${days} WHERE ${seen}`,
    [from, to - 1],
  );
  await db.query(
    `INSERT INTO page_breakdowns_daily (page_id, day, dimension, value, count)
     SELECT ${ID('c')}, current_date - d, dim, dim || '-' || (g % 6), 1 + (g + d) % 40
     FROM generate_series($1::int, $2::int) g, ${days}, unnest(ARRAY['country', 'device', 'browser', 'referrer']) dim
     WHERE ${seen}`,
    [from, to - 1],
  );
  await db.query(
    `INSERT INTO block_taps_daily (page_id, day, block_id, taps)
     SELECT s.page_id, s.day, p.blocks -> 1 ->> 'id', s.taps FROM page_stats_daily s JOIN pages p ON p.id = s.page_id
     WHERE s.taps > 0 AND s.page_id >= $1 AND s.page_id <= $2`,
    idRange('c', from, to),
  );
  await db.query(
    `INSERT INTO page_breakdowns_monthly (page_id, month, dimension, value, count)
     SELECT page_id, date_trunc('month', day)::date, dimension, value, sum(count) FROM page_breakdowns_daily
     WHERE page_id >= $1 AND page_id <= $2 GROUP BY 1, 2, 3, 4`,
    idRange('c', from, to),
  );
}

export interface BulkLoad {
  pages: number;
  rows: number;
  ms: number;
  viewRows: number;
  viewMs: number;
}

/** Pages 1..total cloned from the sample in chunks, then their views; `progress` hears each chunk. */
export async function bulkLoad(
  db: Database,
  total: number,
  samples: number,
  passwordHash: string,
  progress: (done: number) => void,
): Promise<BulkLoad> {
  const chunk = 50_000;
  const count = async () => {
    const [r] = await db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM pages) + (SELECT count(*) FROM page_versions)
            + (SELECT count(*) FROM api_keys) AS n`,
    );
    return Number(r.n);
  };
  const before = await count();
  // The sample's ids by name, read once (a name pattern would scan every page at each chunk).
  const sampleIds = (
    await db.query<{ id: string }>(`SELECT id FROM pages WHERE username = ANY($1::text[]) ORDER BY username`, [
      Array.from({ length: samples }, (_, i) => `sample-${i}`),
    ])
  ).map((r) => r.id);
  let started = performance.now();
  for (let from = 1; from <= total; from += chunk) {
    await loadChunk(db, from, Math.min(from + chunk, total + 1), sampleIds, passwordHash);
    progress(Math.min(from + chunk - 1, total));
  }
  const ms = performance.now() - started;
  const rows = (await count()) - before;
  started = performance.now();
  for (let from = 1; from <= total; from += chunk) {
    await loadViews(db, from, Math.min(from + chunk, total + 1));
    progress(-Math.min(from + chunk - 1, total));
  }
  const viewMs = performance.now() - started;
  const [v] = await db.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM page_stats_daily) + (SELECT count(*) FROM page_breakdowns_daily)
          + (SELECT count(*) FROM block_taps_daily) + (SELECT count(*) FROM page_breakdowns_monthly) AS n`,
  );
  await db.query('VACUUM ANALYZE');
  return { pages: total, rows, ms, viewRows: Number(v.n), viewMs };
}

/** Table + index bytes of each table (pg_total_relation_size), largest first. */
export async function tableSizes(db: Database) {
  return db.query<{ name: string; bytes: string; rows: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reltuples::bigint AS rows
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 2 DESC`,
  );
}
