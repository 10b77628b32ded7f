/**
 * The CDN in front of the page hosts, as the rest of the service sees it: page-host answers
 * carry surrogate keys (one per page name, one per template), and a change purges by key.
 * Which CDN is configuration (CDN=none|varnish|fastly|cloudflare); platform/cdn/index.ts makes it.
 */

export type CdnKind = 'none' | 'varnish' | 'fastly' | 'cloudflare';

export interface Cdn {
  readonly kind: CdnKind;
  /**
   * Drops every cached answer tagged with one of `keys`. Resolves when every purge target
   * accepted it; throws (naming the target and its answer) otherwise, so the caller can queue
   * the keys for a retry.
   */
  purge(keys: readonly string[]): Promise<void>;
}

/** No CDN (the default): nothing is cached in front, nothing to purge. */
export const noCdn: Cdn = { kind: 'none', purge: async () => {} };

/** The surrogate key of everything served for one page name (its HTML and Markdown). */
export function pageKey(username: string): string {
  return `page-${username}`;
}

/** The surrogate key of every page rendered with one template. */
export function templateKey(templateId: string): string {
  return `template-${templateId}`;
}
