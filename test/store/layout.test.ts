import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  accountMediaPrefixes,
  IMAGE_KINDS,
  isMediaKey,
  isStoredMediaKey,
  mediaObjectKey,
  newMediaKey,
  pageKeys,
} from '../../store/layout.js';
import { assertKey } from '../../store/objects.js';

describe('object storage layout (store/layout.ts)', () => {
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
    });
  });

  it('stores an image under media/ by kind and account; page fields take the key without media/', () => {
    const uuid = randomUUID();
    const key = newMediaKey('card', account, uuid);
    expect(key).to.equal(`card/${account}/${uuid}.avif`);
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

  it("lists one folder per kind for an account's images, covering every key made for it", () => {
    const prefixes = accountMediaPrefixes(account);
    expect(prefixes).to.deep.equal(IMAGE_KINDS.map((kind) => `media/${kind}/${account}/`));
    for (const kind of IMAGE_KINDS) {
      const stored = mediaObjectKey(newMediaKey(kind, account, randomUUID()));
      expect(prefixes.filter((p) => stored.startsWith(p))).to.have.length(1);
    }
  });
});
