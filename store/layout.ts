/**
 * Where everything lives in object storage, in one place: every key the service writes,
 * reads or removes is made here.
 *
 *   pages/<username>/index.html, page.md, meta.json     a published page (renderer/publish.ts)
 *   pages/<username>/index.html.gz, .br, page.md.gz, .br  their gzip and brotli copies (renderer/encode.ts)
 *   pages/<username>/llms.txt                           the page introduced to language models
 *   pages/<username>/favicon.png, apple-touch-icon.png  the page's icons (renderer/pageIcons.ts)
 *   pages/<username>/og/<hash>.png                      its link-preview picture (renderer/ogPicture.ts)
 *   media/<kind>/<account id>/<uuid>.avif                an image (core/commands/images.ts)
 *   health/probe                                         written by readiness checks (ops/health.ts)
 *
 * An image is known everywhere else (page fields, API answers, its public address under
 * MEDIA_URL) by its media key, the stored key without `media/`: `<kind>/<account id>/<uuid>.avif`.
 */

/** The object a readiness check writes (or reads) to learn that storage answers; no page or image has this key. */
export const HEALTH_PROBE_KEY = 'health/probe';

/** The kinds of image, each a folder of its own under `media/`. */
export const IMAGE_KINDS = ['avatar', 'background', 'card'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** The content codings a page's HTML and Markdown are also stored in, the preferred first. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Where the copy of an object in a content coding is stored: beside it, `.br` or `.gz` added. */
export function encodedKey(key: string, encoding: Encoding): string {
  return `${key}.${encoding === 'gzip' ? 'gz' : 'br'}`;
}

/**
 * The files of a page name: the page, its Markdown twin and the router's route table; the
 * compressed copies of the first two, the page's llms.txt and its two icons.
 */
export function pageKeys(username: string) {
  const dir = `pages/${username}`;
  const html = `${dir}/index.html`;
  const md = `${dir}/page.md`;
  return {
    html,
    md,
    meta: `${dir}/meta.json`,
    htmlBr: encodedKey(html, 'br'),
    htmlGzip: encodedKey(html, 'gzip'),
    mdBr: encodedKey(md, 'br'),
    mdGzip: encodedKey(md, 'gzip'),
    llms: `${dir}/llms.txt`,
    favicon: `${dir}/favicon.png`,
    touchIcon: `${dir}/apple-touch-icon.png`,
  };
}

/** The link-preview pictures of a page name: one folder, so a publish or a removal clears them at once. */
export function ogImagePrefix(username: string): string {
  return `pages/${username}/og/`;
}

/** A page's link-preview picture, named by the hash of what it shows (renderer/ogImage.ts). */
export function ogImageKey(username: string, hash: string): string {
  return `${ogImagePrefix(username)}${hash}.png`;
}

const MEDIA_DIR = 'media';
const MEDIA_KEY_SOURCE = `(${IMAGE_KINDS.join('|')})/[0-9a-f]{24}/[0-9a-f-]{36}\\.avif`;

/** A media key as page fields take it: `avatar/<24 hex account id>/<uuid>.avif`. */
export const MEDIA_KEY = new RegExp(`^${MEDIA_KEY_SOURCE}$`);

/** The stored object of a media key: `media/avatar/<24 hex account id>/<uuid>.avif`. */
const STORED_MEDIA_KEY = new RegExp(`^${MEDIA_DIR}/${MEDIA_KEY_SOURCE}$`);

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

export function isStoredMediaKey(key: string): boolean {
  return STORED_MEDIA_KEY.test(key);
}

/** The media key of a new image of the account. */
export function newMediaKey(kind: ImageKind, accountId: string, uuid: string): string {
  return `${kind}/${accountId}/${uuid}.avif`;
}

/** Where the image of a media key is stored (and served from, under the apex's `/media/`). */
export function mediaObjectKey(key: string): string {
  return `${MEDIA_DIR}/${key}`;
}

/** The folders holding every image of an account, one per kind (each a prefix ending in `/`). */
export function accountMediaPrefixes(accountId: string): string[] {
  return IMAGE_KINDS.map((kind) => `${MEDIA_DIR}/${kind}/${accountId}/`);
}
