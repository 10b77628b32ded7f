import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  accountMediaPrefixes,
  IMAGE_KINDS,
  isMediaKey,
  isStoredMediaKey,
  mediaDimensions,
  mediaObjectKey,
  mediaSizes,
  newMediaKey,
  pageKeys,
} from '../../platform/store/layout.js';
import { assertKey } from '../../platform/store/objects.js';

describe('object storage layout (platform/store/layout.ts)', () => {
  const account = 'a'.repeat(24);

  it('puts a page name in its own folder, compressed copies beside the files they copy', () => {
    expect(pageKeys('ada')).to.deep.equal({
      html: 'pages/ada/index.html',
      md: 'pages/ada/page.md',
      meta: 'pages/ada/meta.json',
      htmlBr: 'pages/ada/index.html.br',
      htmlGzip: 'pages/ada/index.html.gz',
      mdBr: 'pages/ada/page.md.br',
      mdGzip: 'pages/ada/page.md.gz',
      llms: 'pages/ada/llms.txt',
      favicon: 'pages/ada/favicon.png',
      touchIcon: 'pages/ada/apple-touch-icon.png',
      contact: 'pages/ada/contact.vcf',
    });
  });

  it('stores an image under media/ by kind and account; page fields take the key without media/', () => {
    const key = newMediaKey('card', account, { width: 640, height: 480 });
    expect(key).to.match(new RegExp(`^card/${account}/[0-9a-f-]{36}\\.avif$`));
    expect(isMediaKey(key)).to.equal(true);
    expect(mediaObjectKey(key)).to.equal(`media/${key}`);
    expect(isStoredMediaKey(mediaObjectKey(key))).to.equal(true);
    expect(isStoredMediaKey(key)).to.equal(false);
    expect(isMediaKey(mediaObjectKey(key))).to.equal(false);
    assertKey(mediaObjectKey(key));
  });

  it('refuses keys of another kind, account or name', () => {
    const uuid = randomUUID();
    for (const key of [
      `banner/${account}/${uuid}.avif`,
      `avatar/${'A'.repeat(24)}/${uuid}.avif`,
      `avatar/${account}/${uuid}.png`,
      `avatar/${account}/../${uuid}.avif`,
      `avatar/${account}/${uuid}.avif/x`,
    ]) {
      expect(isMediaKey(key), key).to.equal(false);
      expect(isStoredMediaKey(`media/${key}`), key).to.equal(false);
    }
  });

  it('names a new image by a UUID that carries its size: the sizes are derived from the key, never shown in it', () => {
    const key = newMediaKey('avatar', account, { width: 800, height: 600 }, Buffer.alloc(10, 0xab));
    expect(key).to.equal(`avatar/${account}/abababab-abab-8aba-bbab-000320000258.avif`);
    expect(mediaDimensions(key)).to.deep.equal({ width: 800, height: 600 });
    const base = key.slice(0, -'.avif'.length);
    expect(mediaSizes(key)).to.deep.equal([128, 256, 512].map((width) => ({ width, key: `${base}.${width}w.avif` })));
    for (const size of mediaSizes(key)) expect(isStoredMediaKey(mediaObjectKey(size.key)), size.key).to.equal(true);
    expect(newMediaKey('card', account, { width: 10, height: 10 })).to.not.equal(
      newMediaKey('card', account, { width: 10, height: 10 }),
    );
  });

  it('reads the sizes of earlier keys: `_<w>x<h>` named them, a random UUID alone has none', () => {
    const uuid = randomUUID();
    const sized = `card/${account}/${uuid}_300x200.avif`;
    expect(isMediaKey(sized)).to.equal(true);
    expect(mediaDimensions(sized)).to.deep.equal({ width: 300, height: 200 });
    expect(mediaSizes(sized).map((s) => s.key)).to.deep.equal(
      [96, 192].map((w) => `card/${account}/${uuid}_300x200.${w}w.avif`),
    );
    const bare = `card/${account}/${uuid}.avif`;
    expect(isMediaKey(bare)).to.equal(true);
    expect(mediaDimensions(bare)).to.equal(null);
    expect(mediaSizes(bare)).to.deep.equal([]);
  });

  it("lists one folder per kind for an account's images, covering every key made for it", () => {
    const prefixes = accountMediaPrefixes(account);
    expect(prefixes).to.deep.equal(IMAGE_KINDS.map((kind) => `media/${kind}/${account}/`));
    for (const kind of IMAGE_KINDS) {
      const stored = mediaObjectKey(newMediaKey(kind, account, { width: 100, height: 100 }));
      expect(prefixes.filter((p) => stored.startsWith(p))).to.have.length(1);
    }
  });
});
