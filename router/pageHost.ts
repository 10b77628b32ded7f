/**
 * The public page host `<name>.<PAGE_DOMAIN>`, on bare node:http because it is the
 * hot path: the page and its Markdown from storage (ETag, Last-Modified / 304, conditional.ts; `Vary: Accept`; compressed as
 * Accept-Encoding asks, encodings.ts), icons, llms.txt and robots.txt (hostFiles.ts), short-path
 * redirects with a tap counted, the view pixel and tap pings (bots' views and taps are not
 * counted), and a 404 page for the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { PEOPLE } from '../core/rules/readers.js';
import type { CdnKind } from '../platform/cdn/cdn.js';
import type { SecurityHeaders } from '../platform/edge/securityHeaders.js';
import type { PageMeta } from '../platform/publishing/pageFiles.js';
import { pageKeys } from '../platform/store/layout.js';
import type { ObjectStorage, StoredObject } from '../platform/store/objects.js';
import { createAnswers } from './answers.js';
import type { Counters } from './counters.js';
import { hostFit } from './customHosts.js';
import { loadEncoded } from './encodings.js';
import { hostFile } from './hostFiles.js';
import { clientAddress } from './visitorKey.js';
import type { Visits } from './visits.js';
import { acceptsMarkdown, inWindow, locationOf, safeDecode } from './wire.js';

/** Where a request arrived: the page's name, the custom domain it came on (none: its own name), its path and query. */
type At = { name: string; host: string | undefined; url: string };

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const CACHE_MS = 1000;
/** `/<short path>` (with an optional trailing slash); the names of files and pings never match. */
const SHORT_PATH = /^\/([a-z0-9-]{1,40})\/?$/;

export interface PageHostDeps {
  pageDomain: string;
  /** The site (read at each request): page hosts' robots.txt names BASE_URL's sitemap; custom domains take the page scheme. */
  site: { baseUrl: string; pageScheme: string };
  storage: ObjectStorage;
  counters: Counters;
  /** What a view or a Markdown read tells about its visitor (router/visits.ts). */
  visits: Visits;
  log: Logger;
  /** X-Forwarded-For hops to trust (TRUST_PROXY): the client is that many entries from the right; false/0 none. */
  trustProxy: boolean | number;
  now: () => Date;
  /** The security headers of every answer (platform/edge/securityHeaders.ts). */
  headers: SecurityHeaders;
  /** The CDN in front (CDN): which headers tell it how long to keep a page and how to purge it. */
  cdn: CdnKind;
  /** A live page's route table from the database (null: no live page), for when storage fails. */
  routesFromDatabase?: (name: string) => Promise<PageMeta | null>;
}

export function createPageHost(d: PageHostDeps) {
  const { send, notFound, elsewhere } = createAnswers(d);

  // Objects read from storage are kept for a second (and replaced at once when this process
  // publishes), and route tables kept parsed by page name, as the redirect path reads one per hit.
  type Entry = { at: number; object: StoredObject | null };
  const cache = new Map<string, Entry>();
  const tables = new Map<string, { at: number; meta: PageMeta | null }>();
  let swept = Date.now();
  // This process's publishes so far: a read from storage that a publish overtook is answered
  // but not kept, so it never replaces what was just published.
  let publishes = 0;

  /** Keeps both caches to what was read or published within the last second, however many pages there are. */
  function sweep(now: number) {
    if (now - swept < CACHE_MS) return;
    for (const [k, e] of cache) if (now - e.at >= CACHE_MS) cache.delete(k);
    for (const [k, t] of tables) if (now - t.at >= CACHE_MS) tables.delete(k);
    swept = now;
  }

  /** The cached entry while it is fresh. */
  function fresh(key: string): Entry | undefined {
    const hit = cache.get(key);
    return hit && Date.now() - hit.at < CACHE_MS ? hit : undefined;
  }

  async function read(key: string): Promise<Entry> {
    const before = publishes;
    const entry: Entry = { at: Date.now(), object: await d.storage.get(key) };
    if (publishes === before) {
      sweep(entry.at);
      cache.set(key, entry);
    }
    return entry;
  }

  /**
   * A page's HTML or Markdown. Behind a CDN, always read from storage: the CDN is the cache,
   * and after a purge it must get what another process has just published, not this one's copy.
   */
  async function load(key: string): Promise<StoredObject | null> {
    if (d.cdn !== 'none') return d.storage.get(key);
    return (fresh(key) ?? (await read(key))).object;
  }

  /** The page's route table while it is in memory and fresh (null: no page), else undefined. */
  function tableNow(name: string): PageMeta | null | undefined {
    const table = tables.get(name);
    return table && Date.now() - table.at < CACHE_MS ? table.meta : undefined;
  }

  /**
   * The page's route table. `current`: as storage holds it now, as for an answer a CDN keeps
   * (which host it is served on): a route table kept from a second ago may name a domain that a
   * publish in another process has just taken away, and its purge would already be done.
   */
  async function meta(name: string, current = false): Promise<PageMeta | null> {
    const known = current ? undefined : tableNow(name);
    if (known !== undefined) return known;
    const key = pageKeys(name).meta;
    const before = publishes;
    // Storage away: short paths and counting go on from the database's copy of the page.
    const entry = (current ? undefined : fresh(key)) ?? (await read(key).catch((err) => fromDatabase(name, err)));
    if ('table' in entry) return entry.table;
    const parsed = entry.object ? (JSON.parse(entry.object.body.toString('utf8')) as PageMeta) : null;
    if (publishes === before) tables.set(name, { at: entry.at, meta: parsed });
    return parsed;
  }

  async function fromDatabase(name: string, err: unknown): Promise<{ table: PageMeta | null }> {
    if (!d.routesFromDatabase) throw err;
    const table = await d.routesFromDatabase(name);
    tables.set(name, { at: Date.now(), meta: table });
    return { table };
  }

  /** A view from the pixel, with its breakdowns; bots are not counted. */
  function countView(req: IncomingMessage, pageId: string, search: string) {
    const ua = String(req.headers['user-agent'] ?? '');
    const address = clientAddress(req, Number(d.trustProxy));
    const facts = d.visits.view(address, ua, String(req.headers.referer ?? ''), String(req.headers.host ?? ''), search);
    if (facts !== null) d.counters.view(pageId, address, ua, facts);
  }

  /** A Markdown answer (GET, not HEAD), by reader. */
  async function countRead(req: IncomingMessage, name: string) {
    if (req.method !== 'GET') return;
    const m = await meta(name);
    if (!m) return;
    const reader = d.visits.reader(String(req.headers['user-agent'] ?? ''));
    d.counters.markdownRead(m.id, reader, reader === PEOPLE);
  }

  function redirect(req: IncomingMessage, res: ServerResponse, table: PageMeta | null, shortPath: string, at: At) {
    const fit = hostFit(table, at.host, at.url, d.site.pageScheme);
    if (!fit.serve) return elsewhere(req, res, at.name, fit);
    const link = table && Object.hasOwn(table.links, shortPath) ? table.links[shortPath] : undefined;
    const location = link && inWindow(link, d.now().getTime()) ? locationOf(link.url) : null;
    if (!table || !link || location === null) return notFound(req, res);
    if (!d.visits.bot(String(req.headers['user-agent'] ?? ''))) d.counters.tap(table.id, link.blockId);
    res.writeHead(302, { ...d.headers.redirect(), location, 'cache-control': 'no-store', 'content-length': 0 }).end();
  }

  /**
   * Answers a request to a page host. Short paths, the router's hot path, are answered at once
   * when the page's route table is in memory (no promise made); the rest once read. Returns
   * the promise of an answer still to come, if any.
   */
  function handle(req: IncomingMessage, res: ServerResponse, name: string, host?: string): Promise<void> | undefined {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q === -1 ? raw : raw.slice(0, q);
    const method = req.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    if (!name) {
      notFound(req, res);
      return;
    }
    const short = reading ? SHORT_PATH.exec(path) : null;
    const at: At = { name, host, url: raw };
    if (short) {
      const table = tableNow(name);
      if (table === undefined) return meta(name).then((m) => redirect(req, res, m, short[1], at));
      redirect(req, res, table, short[1], at);
      return;
    }
    // Behind a CDN, what it may keep (not the pings under /_/) is answered by the current table.
    return meta(name, d.cdn !== 'none' && !path.startsWith('/_/')).then((m) => {
      const fit = hostFit(m, host, raw, d.site.pageScheme);
      if (!fit.serve) return elsewhere(req, res, name, fit);
      return answer(req, res, name, path, q === -1 ? '' : raw.slice(q + 1), method);
    });
  }

  /** Everything on a page host but short paths. */
  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    path: string,
    search: string,
    method: string,
  ) {
    const reading = method === 'GET' || method === 'HEAD';

    if (path === '/_/v' && reading) {
      const m = await meta(name);
      if (m) countView(req, m.id, search);
      res
        .writeHead(200, {
          ...d.headers.nothing(),
          'content-type': 'image/gif',
          'cache-control': 'no-store',
          'content-length': PIXEL.length,
        })
        .end(method === 'HEAD' ? undefined : PIXEL);
      return;
    }
    if (path.startsWith('/_/t/') && method === 'POST') {
      const m = await meta(name);
      const blockId = safeDecode(path.slice(5));
      const bot = d.visits.bot(String(req.headers['user-agent'] ?? ''));
      if (m && blockId !== null && m.blockIds.includes(blockId) && !bot) d.counters.tap(m.id, blockId);
      res.writeHead(204, { ...d.headers.nothing(), 'cache-control': 'no-store' }).end();
      req.resume();
      return;
    }
    if (!reading) {
      res.writeHead(405, { ...d.headers.nothing(), allow: 'GET, HEAD', 'content-length': 0 }).end();
      return;
    }
    if (path === '/' || path === '/index.html') {
      const query = new URLSearchParams(search);
      const wantsMarkdown = query.get('format') === 'md' || acceptsMarkdown(req.headers.accept);
      const keys = pageKeys(name);
      const object = await loadEncoded(load, wantsMarkdown ? keys.md : keys.html, req.headers['accept-encoding']);
      if (!object) return notFound(req, res);
      if (wantsMarkdown) await countRead(req, name);
      return send(req, res, name, object, 'Accept, Accept-Encoding');
    }
    if (path === '/page.md') {
      const object = await loadEncoded(load, pageKeys(name).md, req.headers['accept-encoding']);
      if (!object) return notFound(req, res);
      await countRead(req, name);
      return send(req, res, name, object, 'Accept-Encoding');
    }
    const file = hostFile(name, path, d.site.baseUrl);
    if (file) {
      const object = (file.key && (await load(file.key))) || file.fallback;
      return object ? send(req, res, name, object) : notFound(req, res);
    }
    notFound(req, res);
  }

  return {
    handle,
    /**
     * This process just published a name: serve the objects it stored (by key) without
     * reading them back; any other object of the name is read again. `null`: the page is gone.
     */
    published(name: string, objects: ReadonlyMap<string, StoredObject> | null) {
      publishes++;
      const at = Date.now();
      sweep(at);
      tables.delete(name);
      for (const key of Object.values(pageKeys(name))) {
        const object = objects?.get(key);
        if (object) cache.set(key, { at, object });
        else cache.delete(key);
      }
    },
  };
}

export type PageHost = ReturnType<typeof createPageHost>;
