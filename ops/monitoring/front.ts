/**
 * The front of every HTTP server: gives each API, dashboard and MCP request its id
 * (platform/edge/requestContext.ts), times every request for the metrics, writes one access line when it
 * is answered, and answers the operations
 * endpoints on the apex host: `/healthz`, `/readyz` and, with METRICS_TOKEN, `/metrics`. The
 * rest goes to the role's handler (none for the worker, which serves only these).
 */
import { timingSafeEqual } from 'node:crypto';
import diagnostics_channel from 'node:diagnostics_channel';
import type http from 'node:http';
import type { Logger } from 'pino';
import { customDomainOf, pageNameFromHost } from '../../core/rules/pageHost.js';
import { contextOf, requestContext, runInRequest } from '../../platform/edge/requestContext.js';
import type { Readiness } from './health.js';
import type { Metrics } from './metrics.js';

export interface FrontOptions {
  log: Logger;
  pageDomain: string;
  metrics: Metrics;
  ready: () => Promise<Readiness>;
  /** `/metrics` on this server needs `Authorization: Bearer <token>`; without one it is not served here. */
  metricsToken?: string;
  inner: http.RequestListener | null;
  /** Headers of every operations answer (nosniff, a CSP that loads nothing, HSTS on https). */
  headers: Record<string, string>;
  /**
   * The service's own host names (BASE_URL's, MEDIA_URL's). Given when this front's inner handler
   * serves pages (the router and `all` roles' service port): any other domain may then be a
   * page's custom domain. Left out elsewhere (the API and worker roles, the metrics port), where a
   * host name is only how a scraper or a health check reached the process.
   */
  ownHosts?: readonly string[];
}

/** What the front keeps on a request for when its answer is finished. */
interface Tracked {
  front: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  started: number;
  /** For pages and media: their route name (they get no request context). */
  bulk: string | null;
}
const TRACKED = Symbol('tracked');
/**
 * Node 24 keeps AsyncLocalStorage in AsyncContextFrame: entering a context is a map copy and
 * promises pay nothing. On Node 20 it puts hooks on every promise, so there pages and media run
 * without one (bench/README.md, the router on Node 20 and 24).
 */
const CONTEXT_FOR_BULK = Number(process.versions.node.split('.')[0]) >= 24;
type TrackedRequest = http.IncomingMessage & { [TRACKED]?: Tracked };

// One subscriber for every answer of every server, rather than a 'finish' listener (a closure)
// per response: on the router's redirects the listener alone cost a tenth of the throughput.
diagnostics_channel.subscribe('http.server.response.finish', (message) => {
  const { request, response } = message as { request: TrackedRequest; response: http.ServerResponse };
  request[TRACKED]?.front(request, response);
});

export function createFront(o: FrontOptions): http.RequestListener {
  const ops = opsEndpoints(o);
  const own = o.ownHosts ? new Set(o.ownHosts) : null;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (o.inner) o.inner(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
  };
  const finished = (req: TrackedRequest, res: http.ServerResponse) => {
    const t = req[TRACKED]!;
    const ms = performance.now() - t.started;
    const route = t.bulk ?? requestContext(req, res).route;
    o.metrics.record(route, req.method, res.statusCode, ms / 1000);
    const level = t.bulk ? 'debug' : 'info';
    if (!o.log.isLevelEnabled(level)) return;
    // Only route patterns are logged: a path no route matched (a wrong method on a claim link,
    // say) can still hold a token, so it is not written.
    const shown = route === 'unmatched' ? 'a path no route matches' : route;
    o.log[level](
      {
        reqId: contextOf(req)?.id,
        method: req.method,
        route,
        status: res.statusCode,
        ms: round(ms),
      },
      `${req.method} ${shown} ${res.statusCode} ${round(ms)} ms`,
    );
  };

  return (req: TrackedRequest, res) => {
    const path = req.url?.split('?', 1)[0] ?? '/';
    // A page's custom domain is a page host: its paths belong to the page (a short path may be `healthz`).
    const page =
      pageNameFromHost(req.headers.host, o.pageDomain) !== null ||
      (own !== null && customDomainOf(req.headers.host, own) !== null);
    if (!page && ops.has(path)) {
      for (const [name, value] of Object.entries(o.headers)) res.setHeader(name, value);
      ops.get(path)!(req, res).catch((err) => {
        o.log.error({ err }, 'operations endpoint failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    // Pages and media, the bulk (a CDN's misses), send no request id: their answers are cached
    // and shared. On Node 24 they still get one in the logs; on Node 20 they run outside
    // AsyncLocalStorage, and the page host's rare log lines name the page and path instead.
    const bulk = page ? 'page' : path.startsWith('/media/') ? 'media' : null;
    req[TRACKED] = { front: finished, started: performance.now(), bulk };
    if (bulk && !CONTEXT_FOR_BULK) handle(req, res);
    else runInRequest(req, res, () => handle(req, res), !bulk);
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

type Endpoint = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

function opsEndpoints(o: Pick<FrontOptions, 'metrics' | 'ready' | 'metricsToken'>): Map<string, Endpoint> {
  const endpoints = new Map<string, Endpoint>([
    ['/healthz', async (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n')],
    [
      '/readyz',
      async (_req, res) => {
        const readiness = await o.ready();
        res
          .writeHead(readiness.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(`${JSON.stringify(readiness)}\n`);
      },
    ],
  ]);
  if (o.metricsToken !== undefined) {
    const expected = Buffer.from(`Bearer ${o.metricsToken}`);
    endpoints.set('/metrics', async (req, res) => {
      const given = Buffer.from(req.headers.authorization ?? '');
      // An empty token means "no token": the metrics server on its own port, reached only from inside.
      if (o.metricsToken !== '' && (given.length !== expected.length || !timingSafeEqual(given, expected))) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
          .end('Send METRICS_TOKEN as "Authorization: Bearer <token>".\n');
        return;
      }
      const body = await o.metrics.registry.metrics();
      res.writeHead(200, { 'content-type': o.metrics.registry.contentType }).end(body);
    });
  }
  return endpoints;
}
