/**
 * Documentation on the apex: /llms.txt for agents, and /docs, a readable reference rendered
 * from openapi-3.1.json (which has the webhooks) by Swagger UI served from our own origin (no
 * external CDN), with links to both documents.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import type { Services } from '../../core/services.js';
import { answerDocument, type HeldDocument, heldDocument } from '../../platform/edge/documents.js';
import type { RequestState } from '../../platform/edge/state.js';
import { llmsTxt, type ToolEntry } from './llms.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'init.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · linkpage</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body{margin:0}.swagger-ui .topbar{display:none}.documents{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1460px;padding:12px 20px 0}</style>
</head>
<body>
<nav class="documents" aria-label="OpenAPI documents">The documents behind this reference: <a href="/openapi.json">openapi.json</a> (OpenAPI 3.0.3) and <a href="/openapi-3.1.json">openapi-3.1.json</a> (OpenAPI 3.1, with the webhooks the service sends).</nav>
<main id="reference"></main>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi-3.1.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false, validatorUrl: null });\n`;

/** `tools`: the MCP tools' declarations, which llms.txt lists. */
export function docsRoutes(router: Router<RequestState>, s: Services, tools: readonly ToolEntry[]) {
  // Made on first use, with the addresses the configuration has by then.
  let llms: HeldDocument | undefined;
  const page = heldDocument(PAGE);
  // Swagger UI's files, read on first use (1.5 MB a process that serves no reference would hold).
  const assets = new Map<string, Promise<HeldDocument>>();
  router.get('/llms.txt', (ctx) => {
    llms ??= heldDocument(llmsTxt(s.config, tools));
    answerDocument(ctx, 'text/plain; charset=utf-8', llms);
  });
  router.get('/docs', (ctx) => answerDocument(ctx, 'text/html; charset=utf-8', page));
  router.get('/docs/:asset', async (ctx, next) => {
    const name = ctx.params.asset;
    const type = ASSETS[name];
    if (!type) return next();
    if (!assets.has(name)) {
      const read = name === 'init.js' ? Promise.resolve(INIT) : readFile(path.join(SWAGGER_DIR, name));
      const held = read.then((body) => heldDocument(body));
      // A read that failed is tried again by the next request, not kept.
      held.catch(() => assets.delete(name));
      assets.set(name, held);
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
    answerDocument(ctx, type, await assets.get(name)!);
  });
}
