/** The republish bench's server (bench/servers.ts starts it as the kind `republish`). */
import { spawnSync } from 'node:child_process';
import type http from 'node:http';
import { createServer } from 'node:http';
import * as v from 'valibot';
import { issueApiKey } from '../core/commands/apiKeys.js';
import { republishStalePages } from '../core/commands/republish.js';
import { defaultProfile } from '../core/model.js';
import { normalizeBlocks } from '../core/rules/blocks.js';
import { AgentBlocks } from '../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { pageKeys } from '../platform/store/layout.js';
import type { ObjectStorage } from '../platform/store/objects.js';
import { embeddedUpkeep } from '../platform/store/upkeep.js';
import { embeddedApp } from './embedded.js';

export const REPUBLISH_PAGES = 10_000;

/** Every page's stored HTML as an older version of its template made it: a comment more, the same metadata. */
async function olderHtml(storage: ObjectStorage): Promise<void> {
  for (let g = 1; g <= REPUBLISH_PAGES; g++) {
    const key = pageKeys(`page-${g}`).html;
    const stored = await storage.get(key);
    if (!stored) throw new Error(`${key} is not stored`);
    await storage.put(key, Buffer.concat([stored.body, Buffer.from('<!-- before the deploy -->\n')]), stored);
  }
}

/**
 * The embedded default as `npm start` runs it (PGlite on disk, a folder), holding 10,000
 * published 20-block pages whose files were rendered with an older render version. Prints `key <api key>
 * <page id>`; `GET /__bench/stale` makes every page stale again (the first call finds them so;
 * `?template` by an older HTML file, else by another bio);
 * `GET /__bench/republish?threads=N&alone` then runs the republish job in this process (on N
 * render threads, or the default for a process that serves requests, or with `alone` for one
 * that does not) and answers its result when it is done, while the API keeps serving.
 */
export async function republishApp(temporary: string[]): Promise<http.Server> {
  const { dataDir, db, services, handler } = await embeddedApp({ onDisk: true });
  temporary.push(dataDir);
  const accountId = 'cccccccccccccccccccccccc';
  await db.query(`INSERT INTO accounts (id, created_by) VALUES ($1, 'bench')`, [accountId]);
  const blocks = normalizeBlocks(
    v.parse(
      AgentBlocks,
      Array.from({ length: 20 }, (_, i) => ({
        type: 'link',
        label: `Link number ${i + 1}`,
        url: `https://example.com/${i + 1}`,
        note: i % 3 === 0 ? 'A short note' : '',
      })),
    ),
  );
  // Ids in no particular order, as newId() makes them, so a batch in key order is spread over the table.
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks, published_template_version)
     SELECT substr(md5(g::text), 1, 24), $1, 'page-' || g, true, true,
            jsonb_set($2::jsonb, '{templateId}', to_jsonb(($4::text[])[1 + g % 10])), $3::jsonb, 'old'
     FROM generate_series(1, ${REPUBLISH_PAGES}) g`,
    [accountId, JSON.stringify(defaultProfile('bench', 'en')), JSON.stringify(blocks), [...TEMPLATE_IDS]],
  );
  // Published before the deploy: the files are there, and none is what the new render makes
  // (they show an older bio, so every HTML and Markdown file differs and is written: the worst
  // case, where a real template change leaves the Markdown twins as they were).
  await db.query(`UPDATE pages SET profile = jsonb_set(profile, '{bio}', '"Before the deploy"')`);
  await republishStalePages(services);
  await db.query(
    `UPDATE pages SET profile = jsonb_set(profile, '{bio}', '"After the deploy"'), published_template_version = 'old'`,
  );
  const key = await issueApiKey(db, { accountId, label: 'bench', createdBy: 'bench', now: new Date() });
  const [first] = await db.query<{ id: string }>(`SELECT id FROM pages WHERE username = 'page-1'`);
  process.stdout.write(`key ${key.apiKey} ${first.id}\n`);
  let runs = 0;
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bench');
    const answer = (work: Promise<unknown>) =>
      work.then(
        (result) => res.end(JSON.stringify(result ?? null)),
        (err) => res.writeHead(500).end(String(err)),
      );
    if (url.pathname === '/__bench/stale') {
      // Every page stale again, its files showing another bio than the new render (the first
      // run's pages were made so above), or with `template` what a template's new version does:
      // every stored HTML file differs from the new render, the Markdown, llms.txt and every
      // file's metadata are the same; then the upkeep the service runs every hour, which clears
      // the dead row versions the UPDATEs leave (PGlite runs no autovacuum).
      const stale =
        runs++ === 0
          ? Promise.resolve()
          : url.searchParams.has('template')
            ? olderHtml(services.storage).then(() => db.query(`UPDATE pages SET published_template_version = 'old'`))
            : db.query(
                `UPDATE pages SET profile = jsonb_set(profile, '{bio}', to_jsonb($1::text)), published_template_version = 'old'`,
                [`After deploy ${runs}`],
              );
      // Then what is still to be written to disk (the run before's files, these) is written
      // first, so no run pays for the one before it.
      answer(
        stale.then(async () => {
          await embeddedUpkeep(db);
          spawnSync('sync');
        }),
      );
      return;
    }
    if (url.pathname === '/__bench/republish') {
      const threads = Number(url.searchParams.get('threads')) || undefined;
      answer(republishStalePages(services, { threads, alone: url.searchParams.has('alone') }));
      return;
    }
    handler(req, res);
  });
}
