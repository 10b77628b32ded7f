/**
 * Rules over a whole block list that a per-field schema cannot see (unique ids and short
 * paths, reserved paths, show windows, embed hosts, image ownership), and the normalisation
 * of agent or stored input into full stored blocks.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Block } from '../model.js';
import type { AgentBlockInput, StoredBlockInput } from '../schemas/blocks.js';
import { EMBED_HOSTS } from '../schemas/blocks.js';

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
 * request (`blocks` or `page.blocks`); `accountId` owns the images the blocks may use.
 */
export function blockListProblems(
  blocks: readonly (AgentBlockInput | StoredBlockInput)[],
  prefix: string,
  accountId: string | null,
): AppError[] {
  const problems: AppError[] = [];
  const ids = new Set<string>();
  const paths = new Set<string>();
  blocks.forEach((b, i) => {
    const at = `${prefix}[${i}]`;
    if (b.id !== undefined) {
      if (ids.has(b.id)) problems.push(invalid(`${at}.id`, `Block id "${b.id}" is used twice in this page.`));
      ids.add(b.id);
    }
    if (b.showFrom && b.showUntil && Date.parse(b.showUntil) <= Date.parse(b.showFrom)) {
      problems.push(invalid(`${at}.showUntil`, 'showUntil must be later than showFrom.'));
    }
    if (b.type === 'link') {
      if (b.path) {
        if (RESERVED_PATHS.has(b.path)) {
          problems.push(
            new AppError('bad_path', {
              field: `${at}.path`,
              detail: b.path,
              hint: `"${b.path}" is reserved.`,
            }),
          );
        } else if (paths.has(b.path)) {
          problems.push(
            new AppError('bad_path', {
              field: `${at}.path`,
              detail: b.path,
              hint: `"${b.path}" is used twice in this page.`,
            }),
          );
        }
        paths.add(b.path);
      }
      if (b.image) {
        const problem = imageProblem(b.image, `${at}.image`, accountId);
        if (problem) problems.push(problem);
      }
    }
    if (b.type === 'embed' && !hostMatches(b.url, EMBED_HOSTS[b.provider])) {
      problems.push(
        new AppError('bad_url', {
          field: `${at}.url`,
          detail: `${at}.url`,
          hint: `A ${b.provider} embed needs a URL on ${EMBED_HOSTS[b.provider].join(' or ')}.`,
        }),
      );
    }
  });
  return problems;
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
