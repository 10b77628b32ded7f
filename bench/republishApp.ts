/** The republish bench's server (bench/servers.ts starts it as the kind `republish`). */
import type http from 'node:http';
import { createServer } from 'node:http';
import * as v from 'valibot';
import { issueApiKey } from '../core/commands/apiKeys.js';
import { republishStalePages } from '../core/commands/republish.js';
import { defaultProfile } from '../core/model.js';
import { normalizeBlocks } from '../core/rules/blocks.js';
import { AgentBlocks } from '../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { embeddedApp } from './embedded.js';

export const REPUBLISH_PAGES = 10_000;

/**
 * The embedded default as `npm start` runs it (PGlite on disk, a folder), holding 10,000
 * published 20-block pages whose files were rendered with an older render version. Prints `key <api key>
 * <page id>`; `GET /__bench/republish` runs the republish job in this process and answers its
 * result when it is done, while the API keeps serving.
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
  return createServer((req, res) => {
    if (req.url === '/__bench/republish') {
      republishStalePages(services).then(
        (result) => res.end(JSON.stringify(result)),
        (err) => res.writeHead(500).end(String(err)),
      );
      return;
    }
    handler(req, res);
  });
}
