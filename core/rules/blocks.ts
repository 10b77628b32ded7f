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
export const RESERVED_PATHS: ReadonlySet<string> = new Set([
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

/** Full stored blocks from agent or stored input: ids assigned, defaults filled, sorted by order. */
export function normalizeBlocks(input: readonly (AgentBlockInput | StoredBlockInput)[]): Block[] {
  const blocks = input.map(toBlock);
  // A stable sort: blocks with equal order keep the order they were sent in.
  return blocks
    .map((b, i) => [b, i] as const)
    .sort((a, z) => a[0].order - z[0].order || a[1] - z[1])
    .map(([b]) => b);
}

/**
 * One full block, every field present in a fixed order (also used to present stored blocks,
 * whose keys the database keeps in its own order).
 */
export function toBlock(b: AgentBlockInput | StoredBlockInput | Block, index: number): Block {
  const base = {
    id: b.id ?? newBlockId(),
    order: b.order ?? index,
    visible: b.visible ?? true,
    showFrom: b.showFrom ?? null,
    showUntil: b.showUntil ?? null,
  };
  switch (b.type) {
    case 'link':
      return {
        ...base,
        type: 'link',
        label: b.label,
        url: b.url,
        note: b.note ?? '',
        image: b.image ?? null,
        imageFocus: b.imageFocus ?? null,
        badge: b.badge ?? null,
        featured: b.featured ?? false,
        adult: b.adult ?? false,
        pulse: b.pulse ?? false,
        path: b.path ?? null,
        apps: b.apps ? { ios: b.apps.ios ?? null, android: b.apps.android ?? null } : null,
      };
    case 'social':
      return {
        ...base,
        type: 'social',
        platform: b.platform,
        url: b.url,
        counter: b.counter ?? null,
      };
    case 'socialRow':
      return {
        ...base,
        type: 'socialRow',
        items: b.items.map((i) => ({ platform: i.platform, url: i.url })),
      };
    case 'embed':
      return {
        ...base,
        type: 'embed',
        provider: b.provider,
        url: b.url,
        title: b.title ?? '',
      };
    case 'messenger':
      return {
        ...base,
        type: 'messenger',
        platform: b.platform,
        handle: b.handle,
        label: b.label ?? '',
      };
    case 'text':
      return {
        ...base,
        type: 'text',
        content: b.content,
        variant: b.variant ?? 'paragraph',
      };
  }
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
