/**
 * Where everything lives in object storage, in one place: every key the service writes,
 * reads or removes is made here.
 *
 *   pages/<username>/index.html, page.md, meta.json     a published page (publishing/publish.ts)
 *   pages/<username>/index.html.gz, .br, page.md.gz, .br  their gzip and brotli copies (publishing/encode.ts)
 *   pages/<username>/llms.txt                           the page introduced to language models
 *   pages/<username>/favicon.png, apple-touch-icon.png  the page's icons (publishing/pageIcons.ts)
 *   pages/<username>/og/<hash>.png                      its link-preview picture (publishing/ogPicture.ts)
 *   media/<kind>/<account id>/<uuid>_<w>x<h>.avif        an image (core/commands/images.ts)
 *   media/<kind>/<account id>/<uuid>_<w>x<h>.<n>w.avif   its smaller sizes, n pixels wide (IMAGE_WIDTHS)
 *   media/<kind>/<account id>/<uuid>.avif                an image stored before sizes were made
 *   health/probe                                         written by readiness checks (ops/health.ts)
 *
 * An image is known everywhere else (page fields, API answers, its public address under
 * MEDIA_URL) by its media key, the stored key without `media/`: `<kind>/<account id>/<uuid>_<w>x<h>.avif`.
 */
import { IMAGE_KINDS, type ImageKind, MEDIA_KEY, MEDIA_KEY_BASE } from '../core/schemas/mediaKey.js';

/** The object a readiness check writes (or reads) to learn that storage answers; no page or image has this key. */
export const HEALTH_PROBE_KEY = 'health/probe';

/** The kinds of image and the shape of a media key are the domain's (core/schemas/mediaKey.ts). */
export { IMAGE_KINDS, type ImageKind, MEDIA_KEY } from '../core/schemas/mediaKey.js';

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

/** The stored object of a media key, or of one of its smaller sizes (`….<width>w.avif`). */
const STORED_MEDIA_KEY = new RegExp(`^${MEDIA_DIR}/${MEDIA_KEY_BASE}(?:\\.[1-9][0-9]{1,3}w)?\\.avif$`);

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

export function isStoredMediaKey(key: string): boolean {
  return STORED_MEDIA_KEY.test(key);
}

/**
 * The widths each kind of image is also stored in, below its own width: the slots the templates
 * give it (a ~96–120 px avatar, a 96 px card thumbnail) at one, two and four times the pixel
 * density. Backgrounds fill the screen and keep one size.
 */
export const IMAGE_WIDTHS: Record<ImageKind, readonly number[]> = {
  avatar: [128, 256, 512],
  card: [96, 192, 384],
  background: [],
};

/** The media key of a new image of the account, `width` × `height` pixels (stored with its sizes). */
export function newMediaKey(
  kind: ImageKind,
  accountId: string,
  uuid: string,
  size?: { width: number; height: number },
): string {
  return `${kind}/${accountId}/${uuid}${size ? `_${size.width}x${size.height}` : ''}.avif`;
}

/** The pixel size of the image of a media key; null for images stored before sizes were made. */
export function mediaDimensions(key: string): { width: number; height: number } | null {
  const m = MEDIA_KEY.exec(key);
  return m?.[2] ? { width: Number(m[2]), height: Number(m[3]) } : null;
}

/** The smaller sizes stored beside an image (none for images stored before sizes were made), each by its media path. */
export function mediaSizes(key: string): { width: number; key: string }[] {
  const m = MEDIA_KEY.exec(key);
  if (!m?.[2]) return [];
  const width = Number(m[2]);
  const base = key.slice(0, -'.avif'.length);
  return IMAGE_WIDTHS[m[1] as ImageKind].filter((w) => w < width).map((w) => ({ width: w, key: `${base}.${w}w.avif` }));
}

/** Where the image of a media key is stored (and served from, under the apex's `/media/`). */
export function mediaObjectKey(key: string): string {
  return `${MEDIA_DIR}/${key}`;
}

/** Every stored object of a media key: the image and its smaller sizes (what deleting it deletes). */
export function mediaObjectKeys(key: string): string[] {
  return [mediaObjectKey(key), ...mediaSizes(key).map((s) => mediaObjectKey(s.key))];
}

/** The folders holding every image of an account, one per kind (each a prefix ending in `/`). */
export function accountMediaPrefixes(accountId: string): string[] {
  return IMAGE_KINDS.map((kind) => `${MEDIA_DIR}/${kind}/${accountId}/`);
}
