import { expect } from 'chai';
import { defaultProfile } from '../../core/model.js';
import { pageLookupsRepo } from '../../platform/store/pageLookups.js';
import { suiteEngine as engine, freshDatabaseForBlock } from '../helpers/db.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const HOUR = 3_600_000;
const ACCOUNT = 'a00000000000000000000001';

/** A page `n` of the account: id p0…0n, username `page-n`. */
const pageId = (n: number) => `p${String(n).padStart(23, '0')}`;

describe(`the lookups beside a page's row in one statement (platform/store/pageLookups.ts) on ${engine}`, () => {
  const fresh = freshDatabaseForBlock();
  before(async () => {
    const { db } = fresh;
    await db.query(`INSERT INTO accounts (id, created_by) VALUES ($1, 'test')`, [ACCOUNT]);
    for (let n = 1; n <= 5; n++)
      await db.query(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks)
         VALUES ($1, $2, $3, true, true, $4::jsonb, '[]'::jsonb)`,
        [pageId(n), ACCOUNT, `page-${n}`, JSON.stringify(defaultProfile(`Page ${n}`, 'en'))],
      );
    // page-1 failed to publish once; page-2 is queued and not yet tried (not pending).
    await db.query(`INSERT INTO publish_queue (username, attempts) VALUES ('page-1', 1), ('page-2', 0)`);
    const domain = (n: number, state: string, failingSince: Date | null) =>
      db.query(
        `INSERT INTO page_domains (page_id, account_id, domain, state, attached_at, checks_since, failing_since)
         VALUES ($1, $2, $3, $4, $5, $5, $6)`,
        [pageId(n), ACCOUNT, `links.site-${n}.example`, state, NOW, failingSince],
      );
    await domain(1, 'active', null);
    await domain(2, 'failing', new Date(NOW.getTime() - HOUR)); // within a two-hour grace
    await domain(3, 'failing', new Date(NOW.getTime() - 3 * HOUR)); // past it
    await domain(4, 'pending', null);
    await db.query(
      `INSERT INTO link_checks (url, host, seen_at, checked_at, outcome, status, error, failed_nights, broken_since) VALUES
         ('https://ok.example/', 'ok.example', $1, $1, 'ok', 200, NULL, 0, NULL),
         ('https://gone.example/', 'gone.example', $1, $1, 'failed', 404, 'Not Found', 2, $2),
         ('https://new.example/', 'new.example', $1, NULL, NULL, NULL, NULL, 0, NULL),
         ('https://other.example/', 'other.example', $1, $1, 'ok', 200, NULL, 0, NULL)`,
      [NOW, new Date('2026-11-27T03:04:05.678Z')],
    );
  });

  const lookups = (pages: number[], urls: string[] = []) =>
    pageLookupsRepo(fresh.db).of({
      usernames: pages.map((n) => `page-${n}`),
      pageIds: pages.map(pageId),
      urls,
      now: NOW,
      graceMs: 2 * HOUR,
    });

  it('names the pages whose publish failed, not those merely queued', async () => {
    expect([...(await lookups([1, 2, 3])).pending]).to.deep.equal(['page-1']);
  });

  it('gives the domain of a page that serves on one: active, or failing within the grace', async () => {
    expect((await lookups([1, 2, 3, 4, 5])).domains).to.deep.equal(
      new Map([
        [pageId(1), 'links.site-1.example'],
        [pageId(2), 'links.site-2.example'],
      ]),
    );
  });

  it("gives what the link check found for checked URLs, its times as dates, and nothing for unchecked or others' URLs", async () => {
    const { links } = await lookups([1], ['https://ok.example/', 'https://gone.example/', 'https://new.example/']);
    expect(links.sort((a, b) => a.url.localeCompare(b.url))).to.deep.equal([
      {
        url: 'https://gone.example/',
        checkedAt: NOW,
        outcome: 'failed',
        status: 404,
        error: 'Not Found',
        failedNights: 2,
        brokenSince: new Date('2026-11-27T03:04:05.678Z'),
      },
      {
        url: 'https://ok.example/',
        checkedAt: NOW,
        outcome: 'ok',
        status: 200,
        error: null,
        failedNights: 0,
        brokenSince: null,
      },
    ]);
  });

  it('answers empty lookups for pages with none of them, and for no pages', async () => {
    for (const pages of [[5], []])
      expect(await lookups(pages, [])).to.deep.equal({ pending: new Set(), domains: new Map(), links: [] });
  });
});
