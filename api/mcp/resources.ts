/**
 * The caller's pages as MCP resources: each page's Markdown twin (its page.md), at
 * `linkpage://pages/{id}.md`. The id, not the name, so the address holds when the page is
 * renamed, and a scheme of our own, as the twin is read here for unpublished pages too; the
 * public address of the twin is in the resource's description. Without a key the list is empty;
 * a key kept to some pages lists and reads only those. With a key the list also names the
 * proposal review's MCP App (apps/reviewApp.ts), which anyone may read.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../../core/caller.js';
import { AppError } from '../../core/errors.js';
import { listMarkdownTwins, type MarkdownTwin, readMarkdownTwin } from '../../core/queries/pageMarkdown.js';
import { authorize, OWNER, withinGrant } from '../../core/rules/roles.js';
import type { Services } from '../../core/services.js';
import { APP_MIME, REVIEW_APP_RESOURCE, REVIEW_APP_URI, reviewAppHtml } from './apps/reviewApp.js';
import { rpcError } from './rpcError.js';

const TEMPLATE = 'linkpage://pages/{id}.md';
const URI = /^linkpage:\/\/pages\/([^/]+)\.md$/;
const MIME = 'text/markdown';
/** MCP's code for a resource that does not exist (or is not the caller's). */
const RESOURCE_NOT_FOUND = -32002;

export interface ResourceSdk {
  ListResourcesRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListResourcesRequestSchema;
  ListResourceTemplatesRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListResourceTemplatesRequestSchema;
  ReadResourceRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ReadResourceRequestSchema;
  ErrorCode: typeof ErrorCode;
}

export const resourceUri = (pageId: string) => `linkpage://pages/${pageId}.md`;

function describe(t: MarkdownTwin) {
  const state = t.isPublished ? `published at ${t.markdownUrl}` : 'not published';
  return {
    uri: resourceUri(t.id),
    name: `${t.username}.md`,
    title: `${t.username} in Markdown`,
    description: `The Markdown twin of the page ${t.username} (${state}).`,
    mimeType: MIME,
    annotations: { lastModified: t.updatedAt.toISOString() },
  };
}

export function serveResources(server: Server, sdk: ResourceSdk, o: { s: Services; caller: Caller }): void {
  const { s, caller } = o;
  server.setRequestHandler(sdk.ListResourcesRequestSchema, async () => ({
    resources: caller.accountId
      ? [
          ...withinGrant(caller.grant ?? OWNER, await listMarkdownTwins(s, caller.accountId)).map(describe),
          REVIEW_APP_RESOURCE,
        ]
      : [],
  }));
  server.setRequestHandler(sdk.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: TEMPLATE,
        name: 'page-markdown',
        title: 'A page in Markdown',
        description: "The Markdown twin of one of the key's pages, by page id.",
        mimeType: MIME,
      },
    ],
  }));
  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    // The proposal review's view (apps/reviewApp.ts): the same HTML for everyone, no data in it.
    if (uri === REVIEW_APP_URI) {
      return { contents: [{ uri, mimeType: APP_MIME, text: reviewAppHtml(), _meta: { ui: { prefersBorder: true } } }] };
    }
    const id = URI.exec(uri)?.[1];
    const notFound = (why: string) => rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${why}`, { uri });
    if (!id) throw notFound(`resources here are ${TEMPLATE}`);
    if (!caller.accountId) throw notFound('reading a page needs an API key (Authorization: Bearer svc_sk_…)');
    try {
      // Every role may read a page; a key kept to some pages reaches only those (not_found for the rest).
      authorize(caller.grant ?? OWNER, 'viewer', id);
      const twin = await readMarkdownTwin(s, caller.accountId, id);
      return { contents: [{ uri, mimeType: MIME, text: twin.markdown }] };
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') throw notFound('no page of this key has that id');
      throw err;
    }
  });
}
