/**
 * Republishing after a template or a site address changed: every published page records the
 * render version it was rendered with (renderer/versions.ts: its template's content hash and a
 * hash of the page and media addresses of the configuration); pages whose version is no longer
 * the current one are rendered again, in batches: one read, the files rendered and stored (on a
 * worker thread for large runs, while the next batch is read), one update. Progress goes to
 * the log at info level: a line at the start, one every few seconds, and one at the end.
 * A page changed while its batch was being written is published once more through the
 * outbox, so an older render never stays.
 */
import { templateKey } from '../../platform/cdn/cdn.js';
import type { Copies } from '../../platform/publishing/encode.js';
import { cardInputs } from '../../platform/publishing/ogPicture.js';
import { fromSource, type RenderSource } from '../../platform/publishing/pageFiles.js';
import { renderThreads, startRenderPool } from '../../platform/publishing/renderPool.js';
import type { Queryable } from '../../platform/store/db.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { republishRepo, type Staleness } from '../../platform/store/republish.js';
import { ogHash } from '../../renderer/ogImage.js';
import { renderVersions } from '../../renderer/versions.js';
import type { Services } from '../services.js';

export interface RepublishResult {
  /** Pages rendered again. */
  republished: number;
  /** Pages that needed rendering again, or their compressed copies made, when the run started. */
  total: number;
  ms: number;
  /** When every page was rendered again (a large run makes the compressed copies after). */
  visibleMs: number;
  /** Pages whose compressed copies a large run made after their files. */
  copied: number;
}

export interface RepublishOptions {
  batchSize?: number;
  /** Pages written at the same time within a batch. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** The current render versions by template id (tests pass others to stand for an edited template). */
  versions?: Record<string, string>;
  /** A progress line in the log at most this often, in ms (5 seconds by default). */
  logEveryMs?: number;
  /**
   * Render and store on a worker thread while the main thread reads the next batch; by
   * default when the storage can be opened there and at least WORKER_MIN_PAGES need it.
   */
  worker?: boolean;
  /**
   * Render threads when it does; by default the cores the process can spare
   * (platform/publishing/renderPool.ts): all of them when `alone`, else one fewer, up to four.
   */
  threads?: number;
  /** The process serves no requests meanwhile (ROLE=worker, `npm run republish`); by default, when ROLE is worker. */
  alone?: boolean;
  /** Called between a large run's two passes, when every page is rendered again and none has its copies yet. */
  betweenPasses?: () => Promise<void>;
}

/** Below this many pages the worker's start-up (about a tenth of a second) is not worth it. */
const WORKER_MIN_PAGES = 500;

/**
 * A run's template keys wait this long in the purge queue before the outbox job sends them
 * anyway: the run sends them itself when its last page is stored, as one purge per template.
 */
const TEMPLATE_PURGE_HOLD_MS = 30 * 60_000;

const pagesCount = (n: number) => (n === 1 ? '1 page' : `${n} pages`);

export async function republishStalePages(s: Services, o: RepublishOptions = {}): Promise<RepublishResult> {
  const started = performance.now();
  const versions = JSON.stringify(o.versions ?? renderVersions(s.config));
  const batchSize = o.batchSize ?? 100;
  const concurrency = o.concurrency ?? 32;
  // PGlite runs each statement on this thread and answers without a turn of the event loop:
  // requests waiting for the API get theirs before each of the job's statements, or they
  // would wait for whole runs of batches.
  const query: Queryable['query'] = async (text, params) => {
    await new Promise(setImmediate);
    return s.db.query(text, params);
  };
  const db: Queryable = { query };
  const pages = republishRepo(db);
  const byTemplate = await pages.staleByTemplate(versions);
  const total = byTemplate.reduce((n, t) => n + t.stale, 0);
  /** Pages whose files are current and whose copies are not, when the run started. */
  const withoutCopies = byTemplate.reduce((n, t) => n + t.withoutCopies, 0);
  if (total > 0) {
    const { pageScheme, pageDomain, mediaUrl } = s.config;
    s.log.info(
      { total, pages: `${pageScheme}//<name>.${pageDomain}/`, media: mediaUrl },
      `republish: ${pagesCount(total)} published with another template or other site addresses; rendering again`,
    );
  }
  // The CDN keeps each page until its template's key is purged: after the last page of each pass.
  const templates = s.cdn.kind !== 'none' ? byTemplate.map((t) => templateKey(t.template)) : [];
  if (templates.length > 0) await s.publisher.purges.hold(templates, TEMPLATE_PURGE_HOLD_MS);
  const logEvery = o.logEveryMs ?? 5_000;
  let logged = started;
  const spec = s.storage.spec;
  if (o.worker && !spec) throw new Error('this storage cannot be opened on a worker thread');
  const worker =
    spec && (o.worker ?? total >= WORKER_MIN_PAGES)
      ? startRenderPool(
          spec,
          s.config,
          o.threads ?? renderThreads(!(o.alone ?? s.config.role === 'worker')),
          concurrency,
        )
      : null;

  /** Renders and stores pages here, a few at a time, with all their files. */
  const writeHere = async (rows: RenderSource[], unlessSame: boolean) => {
    for (let i = 0; i < rows.length; i += concurrency) {
      await Promise.all(
        rows
          .slice(i, i + concurrency)
          .map((row) => s.publisher.writePage(fromSource(row), { routes: false, unlessSame })),
      );
    }
  };

  /**
   * Renders and stores a batch: on the worker, or here. Pages a dead run had claimed are done
   * here, each file compared with what is stored first, so a page the dead run had written is
   * not written again.
   */
  const write = async (rows: (RenderSource & { claimed: boolean })[], now: Date, copies: Copies) => {
    const claimed = rows.filter((r) => r.claimed);
    const fresh = claimed.length === 0 ? rows : rows.filter((r) => !r.claimed);
    if (claimed.length > 0) await writeHere(claimed, true);
    if (worker) return worker.write(fresh, now, copies);
    await writeHere(fresh, false);
  };

  /**
   * One pass over the pages in key order: the batch being written while the next one is read.
   * Each batch's new version is recorded once it is stored; a page changed (edited,
   * unpublished, banned) since it was read is converged once more through the outbox. Progress
   * (and the job's heartbeat, jobs/agenda.ts) counts the pass's own pages, of `of` expected;
   * returns how many.
   */
  const pass = async (which: Staleness, copies: Copies, of: number) => {
    const what = copies === 'only' ? 'compressed copies of ' : '';
    let made = 0;
    const finish = async (ids: string[], readAt: Date) => {
      await pages.markRendered(versions, ids, copies !== 'none');
      for (const username of await pages.changedSince(ids, readAt)) {
        await publishQueueRepo(db).enqueue(username, s.now());
        await s.publisher.publishSoon(username);
      }
      made += ids.length;
      o.onProgress?.(made, Math.max(of, made));
      const at = performance.now();
      if (at - logged >= logEvery) {
        logged = at;
        s.log.info(
          { done: made, total: Math.max(of, made) },
          `republish: ${what}${made} of ${pagesCount(Math.max(of, made))}`,
        );
      }
    };
    let after = '';
    let writing: { ids: string[]; readAt: Date; stored: Promise<void> } | null = null;
    for (;;) {
      const readAt = s.now();
      // The next chunk of ids in key order, then its stale pages: each step reads an index
      // range, where "the next 100 stale pages" made the planner scan every page left.
      const last = await pages.chunkEnd(after, batchSize);
      if (last === null) break;
      const serving = { now: readAt, graceMs: s.config.domains.graceMs };
      // Each page names its card of the drawing it last named as its own, still stored (after
      // an upgrade of the drawing, its publish through the outbox draws the new one:
      // redrawCards.ts), or of the current drawing when none is known.
      const rows = (await pages.staleIn(versions, after, last, which, serving)).map(({ cardVersion, ...row }) => {
        const drawing = cardVersion ?? s.publisher.cardVersion;
        return { ...row, card: ogHash(cardInputs(row, drawing), drawing) };
      });
      after = last;
      if (rows.length === 0) continue;
      await pages.claim(
        rows.map((r) => r.id),
        readAt,
      );
      const stored = write(rows, readAt, copies);
      // Not awaited yet: a failure is reported where the batch is finished.
      stored.catch(() => {});
      if (writing) {
        await writing.stored;
        await finish(writing.ids, writing.readAt);
      }
      writing = { ids: rows.map((r) => r.id), readAt, stored };
    }
    if (writing) {
      await writing.stored;
      await finish(writing.ids, writing.readAt);
    }
    return made;
  };

  let done = 0;
  let copied = 0;
  let visibleMs = 0;
  try {
    if (!worker) {
      done = await pass('any', 'all', total);
    } else {
      // A large run: the pages first, so visitors see the new render sooner, then their
      // compressed copies (most of the work: encode.ts). Between the two the page host sends a
      // page uncompressed; the first pass removes the copies it makes stale.
      done = await pass('stale', 'none', total - withoutCopies);
      visibleMs = performance.now() - started;
      if (templates.length > 0) {
        await s.publisher.purges.release(templateKey(''));
        await s.publisher.purges.hold(templates, TEMPLATE_PURGE_HOLD_MS);
      }
      await o.betweenPasses?.();
      // Those the first pass left without copies, and those left so by a run before.
      copied = await pass('withoutCopies', 'only', withoutCopies + done);
    }
  } finally {
    await worker?.close();
  }
  await s.publisher.purges.release(templateKey(''));
  const ms = performance.now() - started;
  const result = { republished: done, total, ms, visibleMs: visibleMs || ms, copied };
  const seconds = (at: number) => `${(at / 1000).toFixed(1)} s`;
  s.log.info(
    result,
    done === 0 && copied === 0
      ? 'republish: every published page is up to date'
      : `republish: ${pagesCount(done)} rendered again in ${seconds(ms)}` +
          (worker
            ? ` (shown after ${seconds(result.visibleMs)}, with the compressed copies of ${pagesCount(copied)} made after)`
            : ''),
  );
  return result;
}

/**
 * Publishes every page again through the outbox, whatever its recorded version: its files and
 * its route table (meta.json), or their removal for a page not shown. For storage that lost
 * files, or a change the render version does not see (renderer code, icons). Slower than
 * republishStalePages (one page at a time); pages whose publish fails stay in the outbox for
 * the worker's retries, and are counted in `failed` (with any other publish failing meanwhile).
 */
export async function republishEveryPage(
  s: Services,
  onProgress?: (done: number, total: number) => void,
): Promise<{ published: number; failed: number; total: number; ms: number }> {
  const started = performance.now();
  const total = await publishQueueRepo(s.db).enqueueEveryPage(s.now());
  let published = 0;
  // A failed publish waits out its backoff, so it is not due again here: the loop ends.
  while ((await publishQueueRepo(s.db).due(s.now(), 1)).length > 0) {
    published += await s.publisher.drain(100);
    onProgress?.(published, total);
  }
  // The pictures drawn after each publish, and the pages published again naming their cards.
  await s.publisher.settled();
  // A worker running beside may have published some of them: what failed is what still waits.
  const failed = await publishQueueRepo(s.db).countFailing();
  return { published: total - failed, failed, total, ms: performance.now() - started };
}
