/**
 * Rules over a whole block list that a per-field schema cannot see (unique ids and short
 * paths, reserved paths, show windows, embed hosts, image ownership), and the normalisation
 * of agent or stored input into full stored blocks.
 */
import { randomBytes } from 'node:crypto';
import { MEDIA_KEY } from '../../platform/store/layout.js';
import { AppError } from '../errors.js';
import type { Block } from '../model.js';
import type { AgentBlockInput, StoredBlockInput } from '../schemas/blocks.js';
import { EMBED_HOSTS, SHORT_PATH } from '../schemas/blocks.js';
import { isRealHttpUrl, isUtcDateTime } from '../schemas/fields.js';

/** Short paths the page host answers itself or that read as the service's own. */
const RESERVED_PATHS: ReadonlySet<string> = new Set([
  'page',
  'index',
  'api',
  'admin',
  'app',
  'assets',
  'static',
  'media',
  'cdn',
  'favicon',
  'robots',
  'sitemap',
  'manifest',
  'feed',
  'rss',
  'md',
  'markdown',
  'well-known',
  'login',
  'logout',
  'signup',
  'claim',
  'dashboard',
  'settings',
  'stats',
  'health',
  'mcp',
  'llms',
  'docs',
  'openapi',
]);

/** Full stored blocks from agent or stored input: ids and orders assigned, sorted by order. */
export function normalizeBlocks(input: readonly (AgentBlockInput | StoredBlockInput)[]): Block[] {
  const blocks: Block[] = input.map((b, i) => ({ id: b.id ?? newBlockId(), order: b.order ?? i, ...b }));
  // A stable sort: blocks with equal order keep the order they were sent in.
  return blocks
    .map((b, i) => [b, i] as const)
    .sort((a, z) => a[0].order - z[0].order || a[1] - z[1])
    .map(([b]) => b);
}

function newBlockId(): string {
  return `b_${randomBytes(8).toString('base64url')}`;
}

/**
 * Every problem of a block list, in input order. `prefix` is the path of the list in the
 * request (`blocks` or `page.blocks`); `accountId` owns the images the blocks may use. The
 * list may also be raw input that failed its schema (validate reports every problem at once):
 * each rule then looks only at the fields that have the right form, and skips the others
 * (their schema problem is reported already).
 */
export function blockListProblems(
  blocks: readonly (AgentBlockInput | StoredBlockInput)[] | readonly unknown[],
  prefix: string,
  accountId: string | null,
): AppError[] {
  const problems: AppError[] = [];
  const ids = new Set<string>();
  const paths = new Set<string>();
  let contacts = 0;
  blocks.forEach((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
    const b = raw as Record<string, unknown>;
    const at = `${prefix}[${i}]`;
    if (typeof b.id === 'string') {
      if (ids.has(b.id)) problems.push(invalid(`${at}.id`, 'This block id is used by another block of this page.'));
      ids.add(b.id);
    }
    if (isDate(b.showFrom) && isDate(b.showUntil) && Date.parse(b.showUntil) <= Date.parse(b.showFrom)) {
      problems.push(invalid(`${at}.showUntil`, 'showUntil must be later than showFrom.'));
    }
    if (b.type === 'link') {
      if (typeof b.path === 'string' && SHORT_PATH.test(b.path)) {
        if (RESERVED_PATHS.has(b.path)) {
          problems.push(badPath(`${at}.path`, b.path, 'This short path is reserved for the service; choose another.'));
        } else if (paths.has(b.path)) {
          problems.push(badPath(`${at}.path`, b.path, 'This short path is used by another block of this page.'));
        }
        paths.add(b.path);
      }
      if (typeof b.image === 'string' && MEDIA_KEY.test(b.image)) {
        const problem = imageProblem(b.image, `${at}.image`, accountId);
        if (problem) problems.push(problem);
      }
    }
    // One contact card a page: its vCard is the page's one contact.vcf.
    if (b.type === 'contact' && ++contacts > 1) {
      problems.push(invalid(`${at}.type`, 'A page holds one contact card; put every phone and e-mail in that one.'));
    }
    const provider = b.provider;
    if (
      b.type === 'embed' &&
      typeof provider === 'string' &&
      Object.hasOwn(EMBED_HOSTS, provider) &&
      typeof b.url === 'string' &&
      isRealHttpUrl(b.url)
    ) {
      const hosts = EMBED_HOSTS[provider as keyof typeof EMBED_HOSTS];
      if (!hostMatches(b.url, hosts)) {
        problems.push(
          new AppError('bad_url', {
            field: `${at}.url`,
            detail: `${at}.url`,
            hint: `This provider's embeds need a URL on ${hosts.join(' or ')}.`,
          }),
        );
      }
    }
  });
  return problems;
}

function isDate(value: unknown): value is string {
  return typeof value === 'string' && isUtcDateTime(value);
}

function badPath(field: string, path: string, hint: string): AppError {
  return new AppError('bad_path', { field, detail: path, hint });
}

/** A stored image key must name the page's own account (keys look like `<kind>/<account id>/<uuid>.avif`). */
export function imageProblem(key: string, field: string, accountId: string | null): AppError | null {
  if (accountId !== null && key.split('/')[1] === accountId) return null;
  return invalid(field, 'This image belongs to another account; upload it with POST /api/upload first.');
}

function hostMatches(url: string, hosts: readonly string[]): boolean {
  const host = new URL(url).hostname.replace(/\.$/, '');
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

function invalid(field: string, hint: string): AppError {
  return new AppError('invalid_fields', { field, detail: field, hint });
}
