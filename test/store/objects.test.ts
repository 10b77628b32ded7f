import type { EventEmitter } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import S3rver from 's3rver';
import { fsStorage, type ObjectStorage, s3Storage } from '../../platform/store/objects.js';

/** The same contract, run against each adapter. */
function behavesLikeObjectStorage(open: () => ObjectStorage) {
  const meta = { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=60' };

  it('keeps the body, Content-Type, Cache-Control and a quoted ETag', async () => {
    const storage = open();
    const { etag } = await storage.put('pages/alice/index.html', '<p>héllo</p>', meta);
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    const got = await storage.get('pages/alice/index.html');
    expect(got?.body.toString('utf8')).to.equal('<p>héllo</p>');
    expect(got?.contentType).to.equal(meta.contentType);
    expect(got?.cacheControl).to.equal(meta.cacheControl);
    expect(got?.etag).to.equal(etag);
  });

  it("keeps an object's CDN surrogate keys, and none for an object stored without them", async () => {
    const storage = open();
    await storage.put('pages/carol/index.html', '<p>hi</p>', { ...meta, surrogateKeys: 'page-carol template-zine' });
    await storage.put('pages/carol/meta.json', '{}', meta);
    expect((await storage.get('pages/carol/index.html'))?.surrogateKeys).to.equal('page-carol template-zine');
    expect((await storage.get('pages/carol/meta.json'))?.surrogateKeys).to.equal(undefined);
  });

  it("keeps a compressed copy's Content-Encoding and its bytes as stored, and none on other objects", async () => {
    const storage = open();
    const plain = Buffer.from('<p>compressed héllo</p>'.repeat(20));
    const br = brotliCompressSync(plain);
    const gz = gzipSync(plain);
    await storage.put('pages/erin/index.html.br', br, { ...meta, contentEncoding: 'br' });
    await storage.put('pages/erin/index.html.gz', gz, { ...meta, contentEncoding: 'gzip' });
    const gotBr = await storage.get('pages/erin/index.html.br');
    const gotGz = await storage.get('pages/erin/index.html.gz');
    expect(gotBr?.contentEncoding).to.equal('br');
    expect(gotBr?.body.equals(br)).to.equal(true);
    expect(gotGz?.contentEncoding).to.equal('gzip');
    expect(gotGz?.body.equals(gz)).to.equal(true);
    expect(gotBr?.contentType).to.equal(meta.contentType);
    expect(gotBr?.etag).to.not.equal(gotGz?.etag);
    await storage.put('pages/erin/index.html', plain, meta);
    expect((await storage.get('pages/erin/index.html'))?.contentEncoding).to.equal(undefined);
  });

  it('changes the ETag when the content changes', async () => {
    const storage = open();
    const first = await storage.put('pages/bob/page.md', '# one', meta);
    const second = await storage.put('pages/bob/page.md', '# two', meta);
    expect(second.etag).to.not.equal(first.etag);
    expect((await storage.get('pages/bob/page.md'))?.body.toString()).to.equal('# two');
  });

  it('tells when the bytes were written (the Last-Modified of a page), on the put and on each get', async () => {
    const storage = open();
    const before = Math.floor(Date.now() / 1000) * 1000;
    const put = await storage.put('pages/dan/index.html', '<p>dated</p>', meta);
    const got = await storage.get('pages/dan/index.html');
    for (const at of [put.lastModified, got?.lastModified]) {
      expect(at).to.be.instanceOf(Date);
      expect(at!.getTime()).to.be.within(before, Date.now());
    }
  });

  it('answers null for a missing object', async () => {
    expect(await open().get('pages/nobody/index.html')).to.equal(null);
  });

  it('tells whether an object exists without reading it, before and after its delete', async () => {
    const storage = open();
    await storage.put('pages/has/index.html', 'x', meta);
    expect(await storage.has('pages/has/index.html')).to.equal(true);
    expect(await storage.has('pages/has/page.md')).to.equal(false);
    await storage.delete(['pages/has/index.html']);
    expect(await storage.has('pages/has/index.html')).to.equal(false);
  });

  it('deletes objects, and deleting missing ones is not an error', async () => {
    const storage = open();
    await storage.put('pages/carol/index.html', 'x', meta);
    await storage.put('pages/carol/page.md', 'y', meta);
    await storage.delete(['pages/carol/index.html', 'pages/carol/page.md', 'pages/carol/missing.json']);
    expect(await storage.get('pages/carol/index.html')).to.equal(null);
    expect(await storage.get('pages/carol/page.md')).to.equal(null);
  });

  it('deletes an object told to keep its metadata all the same: nothing to get, nothing there', async () => {
    const storage = open();
    await storage.put('pages/dora/index.html.br', 'x', { ...meta, contentEncoding: 'br' });
    await storage.delete(['pages/dora/index.html.br'], { keepMeta: true });
    expect(await storage.get('pages/dora/index.html.br')).to.equal(null);
    expect(await storage.has('pages/dora/index.html.br')).to.equal(false);
  });

  it('deletes everything under a folder and nothing beside it', async () => {
    const storage = open();
    for (const key of ['media/avatar/dave/1.avif', 'media/avatar/dave/2.avif', 'media/avatar/davey/3.avif']) {
      await storage.put(key, 'x', meta);
    }
    expect(await storage.deletePrefix('media/avatar/dave/')).to.equal(2);
    expect(await storage.get('media/avatar/dave/1.avif')).to.equal(null);
    expect(await storage.get('media/avatar/davey/3.avif')).to.not.equal(null);
    expect(await storage.deletePrefix('media/avatar/nobody/')).to.equal(0);
  });

  it('deletes everything under a folder but the keys it is told to keep', async () => {
    const storage = open();
    for (const key of ['pages/erin/og/old.png', 'pages/erin/og/new.png', 'pages/erin/og/older.png']) {
      await storage.put(key, 'x', meta);
    }
    expect(await storage.deletePrefix('pages/erin/og/', ['pages/erin/og/new.png'])).to.equal(2);
    expect(await storage.get('pages/erin/og/old.png')).to.equal(null);
    expect(await storage.get('pages/erin/og/older.png')).to.equal(null);
    expect((await storage.get('pages/erin/og/new.png'))?.body.toString()).to.equal('x');
  });

  it('lists the keys under a folder and none beside it', async () => {
    const storage = open();
    for (const key of ['pages/fay/og/a.png', 'pages/fay/og/b.png', 'pages/fay/index.html', 'pages/faye/og/c.png']) {
      await storage.put(key, 'x', meta);
    }
    expect((await storage.list('pages/fay/og/')).sort()).to.deep.equal(['pages/fay/og/a.png', 'pages/fay/og/b.png']);
    expect(await storage.list('pages/nobody/og/')).to.deep.equal([]);
  });

  it('keeps binary bodies byte for byte', async () => {
    const storage = open();
    const bytes = Buffer.from([0, 255, 1, 254, 128, 10, 13]);
    await storage.put('media/card/aaaaaaaaaaaaaaaaaaaaaaaa/x.avif', bytes, {
      contentType: 'image/avif',
      cacheControl: 'immutable',
    });
    expect((await storage.get('media/card/aaaaaaaaaaaaaaaaaaaaaaaa/x.avif'))?.body.equals(bytes)).to.equal(true);
  });

  it('refuses keys that climb out of the root', async () => {
    const storage = open();
    for (const key of ['../secret', 'pages/../../x', '/etc/passwd', 'pages//x', 'pages/a b']) {
      let failed = false;
      try {
        await storage.put(key, 'x', meta);
      } catch {
        failed = true;
      }
      expect(failed, key).to.equal(true);
    }
  });
}

describe('object storage', () => {
  describe('fsStorage (the embedded default)', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'linkpage-fs-'));
    });
    after(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });
    behavesLikeObjectStorage(() => fsStorage(dir));

    it('writes again into a folder that was removed from outside while it ran, metadata included', async () => {
      const storage = fsStorage(dir);
      const meta = { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=60' };
      await storage.put('pages/gone/index.html', '<p>one</p>', meta);
      await rm(path.join(dir, 'pages/gone'), { recursive: true });
      await rm(path.join(dir, '.meta/pages/gone'), { recursive: true });
      await storage.put('pages/gone/index.html', '<p>two</p>', meta);
      const got = await storage.get('pages/gone/index.html');
      expect(got?.body.toString()).to.equal('<p>two</p>');
      expect(got?.contentType).to.equal(meta.contentType);
    });

    it('removes a deleted object’s metadata file, unless told to keep it for the next put, which then writes the object alone', async () => {
      const storage = fsStorage(dir);
      const meta = {
        contentType: 'text/html; charset=utf-8',
        cacheControl: 'public, max-age=60',
        contentEncoding: 'gzip' as const,
      };
      const sidecar = path.join(dir, '.meta/pages/eve/index.html.gz.json');
      await storage.put('pages/eve/index.html.gz', 'one', meta);
      await storage.delete(['pages/eve/index.html.gz']);
      await stat(sidecar).then(
        () => expect.fail('the metadata file is still there'),
        (err: NodeJS.ErrnoException) => expect(err.code).to.equal('ENOENT'),
      );
      await storage.put('pages/eve/index.html.gz', 'two', meta);
      const kept = await stat(sidecar);
      await storage.delete(['pages/eve/index.html.gz'], { keepMeta: true });
      expect((await stat(sidecar)).ino).to.equal(kept.ino);
      // Stored again, by this process or another: the metadata file is the one kept.
      for (const writer of [storage, fsStorage(dir)]) {
        await writer.put('pages/eve/index.html.gz', 'three', meta);
        expect((await stat(sidecar)).ino).to.equal(kept.ino);
        expect(await writer.get('pages/eve/index.html.gz')).to.include({ contentEncoding: 'gzip' });
        await writer.delete(['pages/eve/index.html.gz'], { keepMeta: true });
      }
      // Other metadata is written anew.
      await storage.put('pages/eve/index.html.gz', 'four', { ...meta, cacheControl: 'no-cache' });
      expect((await storage.get('pages/eve/index.html.gz'))?.cacheControl).to.equal('no-cache');
    });

    it('leaves a file stored again with the same bytes untouched, and replaces one with other bytes', async () => {
      const storage = fsStorage(dir);
      const meta = { contentType: 'text/markdown; charset=utf-8', cacheControl: 'public, max-age=60' };
      const file = path.join(dir, 'pages/same/page.md');
      const first = await storage.put('pages/same/page.md', '# Same', meta);
      const before = await stat(file);
      expect(await storage.put('pages/same/page.md', '# Same', meta)).to.deep.equal(first);
      expect((await storage.get('pages/same/page.md'))?.lastModified).to.deep.equal(first.lastModified);
      expect((await stat(file)).ino).to.equal(before.ino);
      const changed = await storage.put('pages/same/page.md', '# Changed', meta);
      expect((await stat(file)).ino).to.not.equal(before.ino);
      expect(changed.etag).to.not.equal(first.etag);
      expect((await storage.get('pages/same/page.md'))?.body.toString()).to.equal('# Changed');
    });

    it('tells whether a file holds exactly these bytes: not a longer or shorter one, not a missing one', async () => {
      const storage = fsStorage(dir);
      const meta = { contentType: 'text/markdown; charset=utf-8', cacheControl: 'public, max-age=60' };
      await storage.put('pages/held/page.md', '# Held', meta);
      expect(await storage.holds!('pages/held/page.md', Buffer.from('# Held'))).to.equal(true);
      for (const other of ['# Hel', '# Held!', '# Hold', '']) {
        expect(await storage.holds!('pages/held/page.md', Buffer.from(other)), other).to.equal(false);
      }
      expect(await storage.holds!('pages/nobody/page.md', Buffer.from('# Held'))).to.equal(false);
      const refused = await storage.holds!('../page.md', Buffer.from('')).then(
        () => null,
        (err: Error) => err.message,
      );
      expect(refused).to.match(/bad storage key/);
    });
  });

  describe('s3Storage against an S3 HTTP server (s3rver)', () => {
    let server: S3rver | undefined;
    let dir: string | undefined;
    let endpoint: string;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'linkpage-s3-'));
      server = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: dir,
        configureBuckets: [{ name: 'pages', configs: [] }],
      });
      const { port } = await server.run();
      endpoint = `http://127.0.0.1:${port}`;
    });
    // Also after a failed start: the folder goes even when there is no server to close.
    after(async () => {
      try {
        await server?.close();
      } finally {
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    });
    it('leaves an object stored with the same bytes alone when asked to (unlessSame), and writes other bytes', async () => {
      const puts: string[] = [];
      (server as unknown as EventEmitter).on(
        'event',
        (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
          for (const r of e.Records) if (r.eventName.includes('Put')) puts.push(r.s3.object.key);
        },
      );
      const storage = s3Storage({
        bucket: 'pages',
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const meta = { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=60' };
      await storage.put('pages/dave/index.html', '<p>one</p>', meta, { unlessSame: true });
      await storage.put('pages/dave/index.html', '<p>one</p>', meta, { unlessSame: true });
      await storage.put('pages/dave/index.html', '<p>two</p>', meta, { unlessSame: true });
      expect(puts.filter((k) => k === 'pages/dave/index.html')).to.have.length(2);
      expect((await storage.get('pages/dave/index.html'))?.body.toString()).to.equal('<p>two</p>');
    });

    behavesLikeObjectStorage(() =>
      s3Storage({
        bucket: 'pages',
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }),
    );
  });
});
