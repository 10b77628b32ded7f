/**
 * The front of every HTTP server: gives each request its id (edge/requestContext.ts), times it
 * for the metrics, writes one access line when it is answered, and answers the operations
 * endpoints on the apex host: `/healthz`, `/readyz` and, with METRICS_TOKEN, `/metrics`. The
 * rest goes to the role's handler (none for the worker, which serves only these).
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { Logger } from 'pino';
import { runInRequest } from '../edge/requestContext.js';
import { pageNameFromHost } from '../router/pageHost.js';
import type { Readiness } from './health.js';
import type { Metrics } from './metrics.js';

/** Routes served in bulk to visitors (a CDN's misses): their access lines are debug, not info. */
const BULK_ROUTES = new Set(['page', 'media']);

export interface FrontOptions {
  log: Logger;
  pageDomain: string;
  metrics: Metrics;
  ready: () => Promise<Readiness>;
  /** `/metrics` on this server needs `Authorization: Bearer <token>`; without one it is not served here. */
  metricsToken?: string;
  inner: http.RequestListener | null;
}

export function createFront(o: FrontOptions): http.RequestListener {
  const ops = opsEndpoints(o);
  return (req, res) => {
    const path = req.url?.split('?', 1)[0] ?? '/';
    if (ops.has(path) && pageNameFromHost(req.headers.host, o.pageDomain) === null) {
      ops.get(path)!(req, res).catch((err) => {
        o.log.error({ err }, 'operations endpoint failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    const started = performance.now();
    const context = runInRequest(req, res, () => {
      if (o.inner) o.inner(req, res);
      else res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
    });
    o.metrics.observe(req, res, () => context.route);
    res.once('finish', () => {
      const level = BULK_ROUTES.has(context.route) ? 'debug' : 'info';
      if (!o.log.isLevelEnabled(level)) return;
      const ms = Math.round((performance.now() - started) * 10) / 10;
      // An unmatched path is named as it came (truncated): no route holds a secret there.
      const shown = context.route === 'unmatched' ? `${path.slice(0, 100)} (no route)` : context.route;
      o.log[level](
        { reqId: context.id, method: req.method, route: context.route, status: res.statusCode, ms },
        `${req.method} ${shown} ${res.statusCode} ${ms} ms`,
      );
    });
  };
}

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
