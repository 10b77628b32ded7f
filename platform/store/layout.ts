/**
 * Where everything lives in object storage, in one place: every key the service writes,
 * reads or removes is made here.
 *
 *   pages/<username>/index.html, page.md, meta.json     a published page (platform/publishing/publish.ts)
 *   pages/<username>/index.html.gz, .br, page.md.gz, .br  their gzip and brotli copies (platform/publishing/encode.ts)
 *   pages/<username>/llms.txt                           the page introduced to language models
 *   pages/<username>/favicon.png, apple-touch-icon.png  the page's icons (platform/publishing/pageIcons.ts)
 *   pages/<username>/og/<hash>.png                      its link-preview picture (platform/publishing/ogPicture.ts)
 *   platform/media/<kind>/<account id>/<id>.avif                  an image (core/commands/images.ts)
 *   platform/media/<kind>/<account id>/<id>.<n>w.avif             its smaller sizes, n pixels wide (IMAGE_WIDTHS)
 *   health/probe                                         read by a router's readiness check; never written
 *   health/<process>/probe                               written and removed at once by a start or a readiness check
 *
 * An image is known everywhere else (page fields, API answers, its public address under
 * MEDIA_URL) by its media key, the stored key without `media/`: `<kind>/<account id>/<id>.avif`,
 * `<id>` being 36 characters of hex and hyphens. Its smaller sizes are this layout's business:
 * their names are derived from the key (mediaSizes) and never shown in it.
 *
 * Images stored earlier keep their keys, which page fields still take: `<uuid>_<w>x<h>.avif`
 * (stored with sizes, named by the largest's pixel size) and `<uuid>.avif` (stored before sizes
 * were made; it has none).
 */
import { randomBytes } from 'node:crypto';
import { IMAGE_KINDS, type ImageKind, MEDIA_KEY, MEDIA_KEY_BASE } from '../../core/schemas/mediaKey.js';

/**
 * The object a router's readiness check reads to learn that storage answers; nothing writes it,
 * so "not found" is the expected answer. No page or image has this key.
 */
export const HEALTH_PROBE_KEY = 'health/probe';

/** Names this process's folder under `health/`, once. */
const PROCESS_MARK = randomBytes(6).toString('hex');

/**
 * The key a role that writes proves it can with: written, read back and removed by each check
 * (at start, then readiness), in a folder of this process's own, so that one process's checks
 * run one after another there and no other touches it. Keys of several processes side by side
 * in one folder raced on a server that removes a folder left empty (s3rver does): one process's
 * delete emptied and removed the folder while another's write was opening its file in it, and
 * s3rver crashed. Folder storage keeps the emptied folder: one a process start.
 */
export function healthProbeKey(): string {
  return `health/${PROCESS_MARK}/probe`;
}

/** The kinds of image and the shape of a media key are the domain's (core/schemas/mediaKey.ts). */
export { IMAGE_KINDS, type ImageKind, MEDIA_KEY } from '../../core/schemas/mediaKey.js';

/** The content codings a page's HTML and Markdown are also stored in, the preferred first. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Where the copy of an object in a content coding is stored: beside it, `.br` or `.gz` added. */
export function encodedKey(key: string, encoding: Encoding): string {
  return `${key}.${encoding === 'gzip' ? 'gz' : 'br'}`;
}

/** The name of a page's contact card on its host (`/contact.vcf`), written when the page has one. */
export const CONTACT_FILE = 'contact.vcf';

/**
 * The files of a page name: the page, its Markdown twin and the router's route table; the
 * compressed copies of the first two, the page's llms.txt, its two icons and its contact card.
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
    contact: `${dir}/${CONTACT_FILE}`,
  };
}

/** The folder of a page name's files (what removing an account's names removes whole, empty folders too). */
export function pageFolder(username: string): string {
  return `pages/${username}/`;
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

/** The largest pixel size an image id can carry (the pipeline makes far smaller ones). */
const MAX_SIDE = 99_999;

/**
 * The id of a new image: a UUID of version 8 (the version whose bits are the maker's own,
 * RFC 9562) carrying 74 random bits and, in its last group, the image's width and height as
 * six hex digits each. A client sees a UUID; the layout reads the size back (mediaDimensions)
 * to name the smaller sizes and to offer them by width.
 */
function imageId(size: { width: number; height: number }, random: Buffer): string {
  if (random.length < 10) throw new Error('an image id takes 10 random bytes');
  for (const side of [size.width, size.height]) {
    if (!Number.isInteger(side) || side < 1 || side > MAX_SIDE) throw new Error(`image side ${side} out of range`);
  }
  const hex = random.toString('hex');
  const variant = (8 | (random[9] & 3)).toString(16);
  const side = (n: number) => n.toString(16).padStart(6, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(12, 15)}-${variant}${hex.slice(15, 18)}-${side(size.width)}${side(size.height)}`;
}

/** A version-8 image id as imageId makes it, with the width and height groups. */
const SIZED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-([0-9a-f]{6})([0-9a-f]{6})$/;

/** The media key of a new image of the account, `width` × `height` pixels (stored with its sizes). */
export function newMediaKey(
  kind: ImageKind,
  accountId: string,
  size: { width: number; height: number },
  random: Buffer = randomBytes(10),
): string {
  return `${kind}/${accountId}/${imageId(size, random)}.avif`;
}

/**
 * The pixel size of the image of a media key: from its id, or from the suffix of an earlier
 * key; null for images stored before sizes were made (their ids are random UUIDs, version 4).
 */
export function mediaDimensions(key: string): { width: number; height: number } | null {
  const m = MEDIA_KEY.exec(key);
  if (!m) return null;
  if (m[3]) return { width: Number(m[3]), height: Number(m[4]) };
  const sized = SIZED_ID.exec(m[2]);
  if (!sized) return null;
  const width = Number.parseInt(sized[1], 16);
  const height = Number.parseInt(sized[2], 16);
  return width >= 1 && height >= 1 && width <= MAX_SIDE && height <= MAX_SIDE ? { width, height } : null;
}

/** The smaller sizes stored beside an image (none for images stored before sizes were made), each by its media path. */
export function mediaSizes(key: string): { width: number; key: string }[] {
  const size = mediaDimensions(key);
  if (!size) return [];
  const kind = key.slice(0, key.indexOf('/')) as ImageKind;
  const base = key.slice(0, -'.avif'.length);
  return IMAGE_WIDTHS[kind].filter((w) => w < size.width).map((w) => ({ width: w, key: `${base}.${w}w.avif` }));
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
