/**
 * The proposal review as an MCP App (the MCP Apps extension, SEP-1865): `get_proposal` names
 * the `ui://` resource below in its `_meta`, and a host that renders MCP Apps shows it beside the
 * tool's result, in a sandboxed frame: the change in words, the page as proposed, and approve or
 * decline, which the view asks of the host as calls of `approve_proposal` and
 * `decline_proposal` (the caller's own role decides, as for any call). Hosts without MCP Apps
 * have the result's `reviewUrl`, the dashboard's review.
 *
 * The view is one self-contained HTML file: the extension's own `App` (the browser bundle of
 * `@modelcontextprotocol/ext-apps`) and our script inlined, no request anywhere else, so the
 * host's default content policy (no network) holds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const REVIEW_APP_URI = 'ui://linkpage/proposal-review.html';
/** The extension's MIME type of a view (its RESOURCE_MIME_TYPE). */
export const APP_MIME = 'text/html;profile=mcp-app';

/** What `get_proposal` carries in tools/list: the view's address, under the key now and the key of the first drafts. */
export const REVIEW_APP_META = { ui: { resourceUri: REVIEW_APP_URI }, 'ui/resourceUri': REVIEW_APP_URI };

/** The resource as resources/list names it. */
export const REVIEW_APP_RESOURCE = {
  uri: REVIEW_APP_URI,
  name: 'proposal-review',
  title: 'Review a proposed change',
  description:
    'The view get_proposal opens in hosts that render MCP Apps: the change, the page as proposed, approve or decline.',
  mimeType: APP_MIME,
};

/**
 * The library's module, its closing `export{a as B,…}` turned into a `McpApps` object the view's
 * script (in the same module) reads.
 */
function inlinedLibrary(): string {
  const file = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
  const code = readFileSync(file, 'utf8');
  const tail = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(code);
  if (!tail) throw new Error(`${file}: no export list at its end`);
  const names = tail[1].split(',').map((pair) => {
    const [local, exported] = pair.trim().split(/\s+as\s+/);
    return `${exported ?? local}:${local}`;
  });
  return `${code.slice(0, tail.index)}\nconst McpApps={${names.join(',')}};`;
}

let html: string | undefined;

/** The view's HTML, made once per process. */
export function reviewAppHtml(): string {
  if (html === undefined) {
    const page = readFileSync(new URL('./proposalReview.html', import.meta.url), 'utf8');
    const view = readFileSync(new URL('./proposalReview.js', import.meta.url), 'utf8');
    html = page
      .replace('/*APP_LIBRARY*/', () => inlinedLibrary().replaceAll('</script', '<\\/script'))
      .replace('/*APP_VIEW*/', () => view);
  }
  return html;
}
