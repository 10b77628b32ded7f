/**
 * MCP Server Cards (SEP-2127; the schema v1 of MCP's experimental server-card extension): what
 * each MCP address of the site is, for a client that knows only the site's name, before it
 * connects. Each card is at `<address>/server-card`, the location MCP reserves for it; the card
 * of /mcp also at /.well-known/mcp/server-card.json, where clients of the earlier drafts look;
 * and the site's AI Catalog at /.well-known/ai-catalog.json lists both. A card names no tools:
 * a client lists them once connected. Public, cacheable and readable from any origin.
 */
import type Router from '@koa/router';
import type { Services } from '../../core/services.js';
import { answerDocument, type HeldDocument, heldDocument } from '../../platform/edge/documents.js';
import type { RequestState } from '../../platform/edge/state.js';
import { MCP_SERVER_VERSION } from './endpoint.js';
import { MCP_ACCOUNT_PATH, MCP_PATH } from './http.js';

export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const AI_CATALOG_TYPE = 'application/ai-catalog+json';
const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The site's host in reverse-DNS order (`links.example.com` → `com.example.links`), a card name's namespace. */
function namespaceOf(baseUrl: string): string {
  return new URL(baseUrl).hostname.split('.').reverse().join('.');
}

/** The two cards and the catalog, as JSON, for the site at `baseUrl` speaking `versions` of MCP. */
export function serverCards(baseUrl: string, versions: readonly string[]) {
  const namespace = namespaceOf(baseUrl);
  const card = (path: string, name: string, title: string, description: string, headers?: object[]) => ({
    $schema: SCHEMA,
    name: `${namespace}/${name}`,
    title,
    description,
    version: MCP_SERVER_VERSION,
    websiteUrl: `${baseUrl}/`,
    remotes: [
      {
        type: 'streamable-http',
        url: `${baseUrl}${path}`,
        ...(headers && { headers }),
        supportedProtocolVersions: versions,
      },
    ],
  });
  const agents = card(
    MCP_PATH,
    'linkpage',
    'linkpage',
    'Make and edit link-in-bio pages; one call makes a page, no account needed first.',
    [
      {
        name: 'Authorization',
        description: 'Bearer <API key>: the key create_page answers with. The keyless tools need none.',
        isRequired: false,
        isSecret: true,
      },
    ],
  );
  const people = card(
    MCP_ACCOUNT_PATH,
    'linkpage-account',
    'linkpage: your pages',
    "A person's own pages, for the assistant they approve (OAuth).",
  );
  const host = new URL(baseUrl).hostname;
  const catalog = {
    specVersion: '1.0',
    entries: [
      { identifier: `urn:air:${host}:mcp:linkpage`, type: SERVER_CARD_TYPE, url: `${baseUrl}${MCP_PATH}/server-card` },
      {
        identifier: `urn:air:${host}:mcp:linkpage-account`,
        type: SERVER_CARD_TYPE,
        url: `${baseUrl}${MCP_ACCOUNT_PATH}/server-card`,
      },
    ],
  };
  return { agents, people, catalog };
}

export function serverCardRoutes(router: Router<RequestState>, s: Services): void {
  // Made on first use: the protocol versions come from the MCP SDK, which loads on first use.
  let held: Promise<Record<'agents' | 'people' | 'catalog', HeldDocument>> | undefined;
  const documents = () => {
    held ??= import('@modelcontextprotocol/sdk/types.js').then(({ SUPPORTED_PROTOCOL_VERSIONS }) => {
      const made = serverCards(s.config.baseUrl, SUPPORTED_PROTOCOL_VERSIONS);
      return {
        agents: heldDocument(JSON.stringify(made.agents, null, 2)),
        people: heldDocument(JSON.stringify(made.people, null, 2)),
        catalog: heldDocument(JSON.stringify(made.catalog, null, 2)),
      };
    });
    return held;
  };
  const serve = (path: string, which: 'agents' | 'people' | 'catalog') =>
    router.get(path, async (ctx) => {
      const doc = (await documents())[which];
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Access-Control-Allow-Methods', 'GET');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, If-None-Match');
      ctx.set('Cache-Control', 'public, max-age=3600');
      answerDocument(ctx, which === 'catalog' ? AI_CATALOG_TYPE : SERVER_CARD_TYPE, doc);
    });
  serve(`${MCP_PATH}/server-card`, 'agents');
  serve('/.well-known/mcp/server-card.json', 'agents');
  serve(`${MCP_ACCOUNT_PATH}/server-card`, 'people');
  serve('/.well-known/ai-catalog.json', 'catalog');
}
