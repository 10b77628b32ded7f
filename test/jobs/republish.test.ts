import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { pino } from 'pino';
import { republishEveryPage, republishStalePages } from '../../core/commands/republish.js';
import { loadConfig } from '../../core/config.js';
import { type RunningProcess, startProcess } from '../../ops/start/process.js';
import { createPublisher } from '../../platform/publishing/publish.js';
import { pageKeys } from '../../platform/store/layout.js';
import type { ObjectMeta } from '../../platform/store/objects.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { republishRepo } from '../../platform/store/republish.js';
import { renderVersions } from '../../renderer/versions.js';
import { api, pageRequest, uploadImage } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';

/**
 * The services of the test app's process started again with its environment changed by `env`:
 * the same database and storage, as after an operator restarts the service with another
 * PAGE_DOMAIN or MEDIA_URL. Log lines are kept in `lines`.
 */
async function restartedWith(env: NodeJS.ProcessEnv): Promise<RunningProcess & { lines: Record<string, unknown>[] }> {
  const a = app();
  const config = loadConfig({ DATA_DIR: a.dataDir, BASE_URL: a.url, PAGE_DOMAIN: 'pages.test', ...env });
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const running = await startProcess({
    config,
    role: 'tool',
    overrides: { db: a.services.db, storage: a.services.storage, secret: a.services.secret, now: a.services.now, log },
  });
  return Object.assign(running, { lines });
}

/** The stored HTML and Markdown of a page. */
async function files(username: string): Promise<{ html: string; md: string }> {
  const { storage } = app().services;
  const [html, md] = await Promise.all(
    ['index.html', 'page.md'].map(async (file) => {
      const stored = await storage.get(`pages/${username}/${file}`);
      if (!stored) throw new Error(`pages/${username}/${file} is not stored`);
      return stored.body.toString();
    }),
  );
  return { html, md };
}

/** Removes a page's HTML and Markdown, so what a republish writes is seen to be its own. */
async function removeFiles(usernames: string[]): Promise<void> {
  await app().services.storage.delete(
    usernames.flatMap((u) => {
      const k = pageKeys(u);
      return [k.html, k.md, k.htmlBr, k.htmlGzip, k.mdBr, k.mdGzip, k.llms];
    }),
  );
}

async function storedVersions(usernames: string[]): Promise<Record<string, string>> {
  const rows = await app().services.db.query<{ username: string; published_template_version: string }>(
    'SELECT username, published_template_version FROM pages WHERE username = ANY($1::text[])',
    [usernames],
  );
  return Object.fromEntries(rows.map((r) => [r.username, r.published_template_version]));
}

/** A published page with an uploaded avatar, shown from MEDIA_URL. */
async function pageWithAvatar() {
  const a = await createAgentAccount({ page: { templateId: 'photo', blocks: [buildLinkBlock()] } });
  const upload = await uploadImage(a.key, 'avatar', await imageOf('png'));
  await api.patch(`/api/profiles/${a.page.id}`, { avatar: upload.key }, { key: a.key });
  return { ...a, avatarKey: upload.key };
}

describe('republishing stale pages (core/commands/republish.ts)', () => {
  // The job acts on every page, so each test has a database and storage of its own.
  ownApp({ each: true });

  it('renders again exactly the published pages whose template changed, once', async () => {
    const zine = [];
    for (let i = 0; i < 3; i++) zine.push(await createAgentAccount({ page: { templateId: 'zine' } }));
    await api.patch(`/api/profiles/${zine[2].page.id}`, { isPublished: false }, { key: zine[2].key });
    const mono = await createAgentAccount({ page: { templateId: 'mono' } });

    const current = renderVersions(app().services.config);
    const edited = { ...current, zine: 'edited-zine' };
    const progress: number[] = [];
    const result = await republishStalePages(app().services, {
      versions: edited,
      batchSize: 1,
      onProgress: (done) => progress.push(done),
    });
    expect(result).to.include({ republished: 2, total: 2 });
    expect(progress).to.deep.equal([1, 2]);
    const byName = await storedVersions([...zine, mono].map((a) => a.page.username));
    expect(byName[zine[0].page.username]).to.equal('edited-zine');
    expect(byName[zine[1].page.username]).to.equal('edited-zine');
    expect(byName[mono.page.username]).to.equal(current.mono);
    expect((await pageRequest(zine[0].page.username, '/')).status).to.equal(200);
    expect((await pageRequest(zine[2].page.username, '/')).status).to.equal(404);

    expect((await republishStalePages(app().services, { versions: edited })).republished).to.equal(0);
  });

  it("names the share card a page's HTML named, still stored, when the cards' drawing changed with the template", async () => {
    const a = await createAgentAccount({ page: { templateId: 'zine' } });
    const name = a.page.username;
    const s = app().services;
    // Published by a process of the release before, whose cards were drawn otherwise.
    const earlier = createPublisher({ ...s, domainGraceMs: s.config.domains.graceMs, cardVersion: 'earlier-drawing' });
    await publishQueueRepo(s.db).enqueue(name, s.now());
    await earlier.publish(name);
    await earlier.settled();
    const named = () => files(name).then(({ html }) => /\/og\/([0-9a-f]{16})\.png"/.exec(html)?.[1]);
    const before = await named();
    expect(await s.storage.has(`pages/${name}/og/${before}.png`)).to.equal(true);

    // This release changed the template too: its files are rendered again before its card is drawn.
    const versions = { ...renderVersions(s.config), zine: 'edited-zine' };
    expect((await republishStalePages(s, { versions })).republished).to.equal(1);
    expect(await named(), 'the card drawn before, not the one its publish will draw').to.equal(before);
  });

  it('compares before writing the pages a dead run had claimed, writes the others, and ends every claim', async () => {
    const claimed = await createAgentAccount({ page: { templateId: 'zine' } });
    const other = await createAgentAccount({ page: { templateId: 'zine' } });
    const s = app().services;
    // A run that died after claiming the first page's batch (and maybe writing its files).
    await republishRepo(s.db).claim([claimed.page.id], s.now());
    const puts: { key: string; unlessSame: boolean }[] = [];
    const storage = s.storage;
    const watched = {
      ...s,
      storage: {
        ...storage,
        put: (key: string, body: Buffer | string, meta: ObjectMeta, o?: { unlessSame?: boolean }) => {
          puts.push({ key, unlessSame: Boolean(o?.unlessSame) });
          return storage.put(key, body, meta, o);
        },
      },
    };
    watched.publisher = createPublisher({ ...watched, config: s.config, domainGraceMs: s.config.domains.graceMs });

    const versions = { ...renderVersions(s.config), zine: 'edited-zine' };
    expect((await republishStalePages(watched, { versions })).republished).to.equal(2);
    const of = (name: string) => puts.filter((p) => p.key.startsWith(`pages/${name}/`));
    // The HTML and the Markdown, each with its brotli and gzip copies, and llms.txt.
    expect(of(claimed.page.username).map((p) => p.unlessSame)).to.deep.equal(Array(7).fill(true));
    expect(of(other.page.username).map((p) => p.unlessSame)).to.deep.equal(Array(7).fill(false));
    const rows = await s.db.query<{ claims: number }>(
      'SELECT count(*)::int AS claims FROM pages WHERE republish_claimed_at IS NOT NULL',
    );
    expect(rows[0].claims).to.equal(0);
  });

  it('renders on a pool of worker threads the same files as in process, with their compressed copies, and records the new version', async () => {
    app().clock.set('2031-02-01T10:00:00Z');
    const pages = [];
    for (let i = 0; i < 5; i++)
      pages.push(await createAgentAccount({ page: { templateId: 'brutal', bio: `Bio ${i}` } }));
    const inProcess = await Promise.all(pages.map(async (a) => (await pageRequest(a.page.username, '/')).text));
    await app().services.db.query(`UPDATE pages SET published_template_version = 'old' WHERE username = ANY($1)`, [
      pages.map((a) => a.page.username),
    ]);
    // What the worker writes must be its own: remove the files first.
    await removeFiles(pages.map((a) => a.page.username));

    // Batches of 100 ids: the stale pages of each are cut in two runs, one a thread.
    const result = await republishStalePages(app().services, { worker: true, threads: 2 });
    expect(result.republished).to.equal(5);
    for (const [i, a] of pages.entries()) {
      const stored = await app().services.storage.get(`pages/${a.page.username}/index.html`);
      expect(stored?.body.toString()).to.equal(inProcess[i]);
      expect(stored?.contentType).to.equal('text/html; charset=utf-8');
      const keys = pageKeys(a.page.username);
      const br = await app().services.storage.get(keys.htmlBr);
      const gzip = await app().services.storage.get(keys.htmlGzip);
      expect(br?.contentEncoding).to.equal('br');
      expect(brotliDecompressSync(br!.body).toString()).to.equal(inProcess[i]);
      expect(gzip?.contentEncoding).to.equal('gzip');
      expect(gunzipSync(gzip!.body).toString()).to.equal(inProcess[i]);
      expect((await app().services.storage.get(keys.mdBr))?.contentEncoding).to.equal('br');
      expect((await app().services.storage.get(keys.llms))?.body.toString()).to.include(a.page.username);
    }
    const [{ stale }] = await app().services.db.query<{ stale: number }>(
      `SELECT count(*)::int AS stale FROM pages WHERE published_template_version = 'old'`,
    );
    expect(stale).to.equal(0);
  });

  it("shows a large run's pages before their compressed copies, never sending a copy older than its page", async () => {
    const pages = [];
    for (let i = 0; i < 3; i++) pages.push(await createAgentAccount({ page: { templateId: 'zine', bio: `Bio ${i}` } }));
    const names = pages.map((a) => a.page.username);
    await app().services.db.query(
      `UPDATE pages SET published_template_version = 'old', profile = jsonb_set(profile, '{bio}', '"After the deploy"')
       WHERE username = ANY($1)`,
      [names],
    );
    const seen: { html: string; copy: number; versions: string[] }[] = [];
    const progress: [number, number][] = [];
    const result = await republishStalePages(app().services, {
      worker: true,
      threads: 1,
      batchSize: 2,
      onProgress: (done, of) => progress.push([done, of]),
      betweenPasses: async () => {
        const { storage } = app().services;
        for (const name of names) {
          const keys = pageKeys(name);
          const copies = await Promise.all(
            [keys.htmlBr, keys.htmlGzip, keys.mdBr, keys.mdGzip].map((k) => storage.get(k)),
          );
          seen.push({
            html: (await files(name)).html,
            copy: copies.filter(Boolean).length,
            versions: Object.values(await storedVersions([name])),
          });
        }
      },
    });
    expect(result).to.include({ republished: 3, total: 3, copied: 3 });
    // Each pass counts its own pages, of the number it expects: the pages, then their copies.
    expect(progress).to.deep.equal([
      [2, 3],
      [3, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(result.visibleMs).to.be.at.most(result.ms);
    for (const between of seen) {
      expect(between.html).to.include('After the deploy');
      expect(between.copy, 'compressed copies left from before the run').to.equal(0);
      expect(between.versions[0]).to.match(/~without-copies$/);
    }
    for (const name of names) {
      const br = await app().services.storage.get(pageKeys(name).htmlBr);
      expect(brotliDecompressSync(br!.body).toString()).to.equal((await files(name)).html);
    }
    const current = renderVersions(app().services.config).zine;
    expect(Object.values(await storedVersions(names))).to.deep.equal([current, current, current]);
  });

  it("keeps the Markdown's compressed copies through a template change, which leaves the Markdown as it was", async () => {
    const pages = [];
    for (let i = 0; i < 2; i++) pages.push(await createAgentAccount({ page: { templateId: 'zine', bio: `Bio ${i}` } }));
    const names = pages.map((a) => a.page.username);
    const { storage } = app().services;
    const mdCopies = (name: string) => [pageKeys(name).mdBr, pageKeys(name).mdGzip];
    const before = await Promise.all(names.flatMap(mdCopies).map((k) => storage.get(k)));
    // Another template: every HTML file differs from the new render, every Markdown file is the same.
    await app().services.db.query(
      `UPDATE pages SET published_template_version = 'old', profile = jsonb_set(profile, '{templateId}', '"mono"')
       WHERE username = ANY($1)`,
      [names],
    );
    const between: { html: number; md: number }[] = [];
    const result = await republishStalePages(app().services, {
      worker: true,
      threads: 1,
      betweenPasses: async () => {
        for (const name of names) {
          const k = pageKeys(name);
          const [html, md] = await Promise.all([
            Promise.all([k.htmlBr, k.htmlGzip].map((key) => storage.has(key))),
            Promise.all(mdCopies(name).map((key) => storage.has(key))),
          ]);
          between.push({ html: html.filter(Boolean).length, md: md.filter(Boolean).length });
        }
      },
    });
    expect(result).to.include({ republished: 2, copied: 2 });
    expect(between).to.deep.equal([
      { html: 0, md: 2 },
      { html: 0, md: 2 },
    ]);
    const after = await Promise.all(names.flatMap(mdCopies).map((k) => storage.get(k)));
    for (const [i, copy] of after.entries()) {
      expect(copy?.etag, 'the copy is the same').to.equal(before[i]?.etag);
      expect(copy?.lastModified, 'the copy was not written again').to.deep.equal(before[i]?.lastModified);
    }
    for (const name of names) {
      const { html, md } = await files(name);
      expect(html).to.include('<body class="t-mono"');
      expect(gunzipSync((await storage.get(pageKeys(name).mdGzip))!.body).toString()).to.equal(md);
      expect(brotliDecompressSync((await storage.get(pageKeys(name).htmlBr))!.body).toString()).to.equal(html);
    }
  });

  it('makes the compressed copies a run that stopped between its passes did not make', async () => {
    const pages = [];
    for (let i = 0; i < 2; i++) pages.push(await createAgentAccount({ page: { templateId: 'mono' } }));
    const names = pages.map((a) => a.page.username);
    const current = renderVersions(app().services.config).mono;
    await app().services.db.query(`UPDATE pages SET published_template_version = $2 WHERE username = ANY($1)`, [
      names,
      `${current}~without-copies`,
    ]);
    await app().services.storage.delete(names.flatMap((n) => [pageKeys(n).htmlBr, pageKeys(n).htmlGzip]));

    for (const worker of [true, false]) {
      const progress: [number, number][] = [];
      const result = await republishStalePages(app().services, {
        worker,
        onProgress: (done, of) => progress.push([done, of]),
      });
      expect(result.total).to.equal(worker ? 2 : 0);
      if (worker) expect(result).to.include({ republished: 0, copied: 2 });
      expect(progress).to.deep.equal(worker ? [[2, 2]] : []);
      for (const name of names) {
        const gzip = await app().services.storage.get(pageKeys(name).htmlGzip);
        expect(gunzipSync(gzip!.body).toString()).to.equal((await files(name)).html);
      }
      expect(Object.values(await storedVersions(names))).to.deep.equal([current, current]);
    }
  });

  it('makes in one pass, without the worker, the copies of pages a stopped large run left without them', async () => {
    const a = await createAgentAccount({ page: { templateId: 'noir' } });
    const current = renderVersions(app().services.config).noir;
    await app().services.db.query(`UPDATE pages SET published_template_version = $2 WHERE username = $1`, [
      a.page.username,
      `${current}~without-copies`,
    ]);
    await app().services.storage.delete([pageKeys(a.page.username).htmlBr]);
    expect(await republishStalePages(app().services, { worker: false })).to.include({ republished: 1, total: 1 });
    const br = await app().services.storage.get(pageKeys(a.page.username).htmlBr);
    expect(brotliDecompressSync(br!.body).toString()).to.equal((await files(a.page.username)).html);
    expect(Object.values(await storedVersions([a.page.username]))).to.deep.equal([current]);
  });

  it('republishes nothing when the configuration is unchanged: the publisher and the job agree on the version', async () => {
    const a = await createAgentAccount({ page: { templateId: 'aurora' } });
    await pageWithAvatar();
    const restarted = await restartedWith({});
    try {
      expect(await republishStalePages(restarted.services)).to.include({ republished: 0, total: 0 });
      expect(await republishStalePages(app().services)).to.include({ republished: 0, total: 0 });
      const [version] = Object.values(await storedVersions([a.page.username]));
      expect(version).to.equal(renderVersions(restarted.services.config).aurora);
    } finally {
      await restarted.stop();
    }
  });

  it('republishes every published page with the new addresses after a change of PAGE_DOMAIN', async () => {
    const pages = [
      await createAgentAccount({ page: { templateId: 'zine', blocks: [buildLinkBlock()] } }),
      await createAgentAccount({ page: { templateId: 'mono', blocks: [buildLinkBlock()] } }),
      await pageWithAvatar(),
    ];
    const hidden = await createAgentAccount();
    await api.patch(`/api/profiles/${hidden.page.id}`, { isPublished: false }, { key: hidden.key });
    const names = pages.map((a) => a.page.username);
    expect((await files(names[0])).html).to.include(`http://${names[0]}.pages.test/`);
    await removeFiles(names);

    const restarted = await restartedWith({ PAGE_DOMAIN: 'moved.test' });
    try {
      const result = await republishStalePages(restarted.services, { batchSize: 2 });
      expect(result).to.include({ republished: 3, total: 3 });
      for (const name of names) {
        const { html, md } = await files(name);
        const page = `http://${name}.moved.test/`;
        for (const url of [`href="${page}"`, `content="${page}"`, `"${page}page.md"`, `ping="${page}_/t/`]) {
          expect(html, `${name}: ${url}`).to.include(url);
        }
        expect(html, name).to.not.include('pages.test');
        expect(md, name).to.not.include('pages.test');
      }
      const versions = renderVersions(restarted.services.config);
      expect(await storedVersions(names)).to.deep.equal({
        [names[0]]: versions.zine,
        [names[1]]: versions.mono,
        [names[2]]: versions.photo,
      });
      expect((await republishStalePages(restarted.services)).republished).to.equal(0);
    } finally {
      await restarted.stop();
    }
  });

  it('republishes every published page with the new image addresses after a change of MEDIA_URL', async () => {
    const withAvatar = await pageWithAvatar();
    const plain = await createAgentAccount();
    const before = (await files(withAvatar.page.username)).html;
    expect(before).to.include(`${app().url}/media/${withAvatar.avatarKey}`);

    const restarted = await restartedWith({ MEDIA_URL: 'https://cdn.example.test/m' });
    try {
      const result = await republishStalePages(restarted.services);
      expect(result).to.include({ republished: 2, total: 2 });
      const { html } = await files(withAvatar.page.username);
      expect(html).to.include(`src="https://cdn.example.test/m/${withAvatar.avatarKey}"`);
      expect(html).to.include(`srcset="https://cdn.example.test/m/${withAvatar.avatarKey} 64w"`);
      expect(html).to.not.include(`${app().url}/media/`);
      expect((await files(plain.page.username)).html).to.include(`http://${plain.page.username}.pages.test/`);
      expect((await republishStalePages(restarted.services)).republished).to.equal(0);
    } finally {
      await restarted.stop();
    }
  });

  it('logs at info level how many pages it renders, its progress and, at the end, the count and time', async () => {
    for (let i = 0; i < 3; i++) await createAgentAccount();
    const restarted = await restartedWith({ PAGE_DOMAIN: 'moved.test' });
    try {
      await republishStalePages(restarted.services, { batchSize: 1, logEveryMs: 0 });
      const republish = restarted.lines.filter((l) => String(l.msg).startsWith('republish:'));
      expect(republish.every((l) => l.level === 30)).to.equal(true);
      expect(republish.map((l) => l.msg)).to.deep.equal([
        'republish: 3 pages published with another template or other site addresses; rendering again',
        'republish: 1 of 3 pages',
        'republish: 2 of 3 pages',
        'republish: 3 of 3 pages',
        republish[4]?.msg,
      ]);
      expect(republish[0]).to.include({ total: 3, pages: 'http://<name>.moved.test/' });
      expect(republish[4]).to.include({ republished: 3, total: 3 }).and.to.have.property('ms').that.is.a('number');
      expect(republish[4].msg).to.match(/^republish: 3 pages rendered again in \d+\.\d s$/);

      await republishStalePages(restarted.services);
      expect(restarted.lines.at(-1)).to.include({ msg: 'republish: every published page is up to date' });
    } finally {
      await restarted.stop();
    }
  });
});

describe('republishing every page (npm run republish -- --all)', () => {
  const own = ownApp({ each: true });

  it('writes every page again, route tables included, after storage lost them', async () => {
    const shown = await createAgentAccount();
    const hidden = await createAgentAccount();
    await api.patch(`/api/profiles/${hidden.page.id}`, { isPublished: false }, { key: hidden.key });
    const names = [shown.page.username, hidden.page.username];
    await own().services.storage.delete(
      names.flatMap((u) => ['index.html', 'page.md', 'meta.json'].map((f) => `pages/${u}/${f}`)),
    );

    // The versions still match, so the stale-page run sees nothing to do…
    expect((await republishStalePages(own().services)).republished).to.equal(0);
    // …and the full one writes what a page shows, and nothing for a page not shown.
    const result = await republishEveryPage(own().services);
    expect(result).to.include({ total: 2, published: 2, failed: 0 });
    expect((await files(shown.page.username)).html).to.include('Test Person');
    expect(await own().services.storage.get(`pages/${shown.page.username}/meta.json`)).to.not.equal(null);
    expect(await own().services.storage.get(`pages/${hidden.page.username}/index.html`)).to.equal(null);
    expect((await pageRequest(shown.page.username, '/')).status).to.equal(200);
  });
});
