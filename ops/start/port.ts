/**
 * The port is taken first, before any module of the service loads or the database opens: a port
 * already in use ends the start at once with one line, rather than after the database was
 * opened (a second start used to open the embedded database the first one held).
 *
 * Until the service is ready, requests wait (up to MAX_WAITING of them); on the apex `/healthz`
 * answers at once (the process is up) and `/readyz` 503 (it is not ready yet). A start that fails
 * answers the waiting requests 503 and lets the port go.
 */
import http from 'node:http';
import { StartupError } from '../../core/errors.js';

const MAX_WAITING = 1_000;

/**
 * How long an idle kept-alive connection stays open: longer than the proxies in front keep theirs
 * (Varnish and nginx 60 s, Caddy 120 s), so that the proxy, not the service, closes it. Node's
 * own 5 s meant a proxy (or any client under load) could send a request on a connection the
 * service was closing that instant, and get a reset for it instead of an answer.
 */
export const KEEP_ALIVE_MS = 125_000;

export interface BoundPort {
  server: http.Server;
  port: number;
  /** Hands the requests (those waiting too) to the service's handler. */
  serve(handler: http.RequestListener): void;
  /** The start failed: answers the waiting requests 503 and closes the port. */
  abandon(): Promise<void>;
}

/**
 * `isApex(host)`: whether a Host header names the apex rather than a page (whose paths are short
 * paths). `variable`: the setting that names this port, for the message when it cannot be bound.
 */
export async function bindPort(
  port: number,
  host: string | undefined,
  isApex: (host: string | undefined) => boolean = () => true,
  variable: 'PORT' | 'METRICS_PORT' = 'PORT',
): Promise<BoundPort> {
  let handler: http.RequestListener | null = null;
  const waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  const unavailable = (res: http.ServerResponse, body: string, type = 'text/plain; charset=utf-8') =>
    res.writeHead(503, { 'content-type': type, 'retry-after': '1', 'cache-control': 'no-store' }).end(body);
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    const apex = isApex(req.headers.host);
    if (apex && req.url === '/healthz') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    else if (apex && req.url === '/readyz') unavailable(res, '{"ready":false,"starting":true}\n', 'application/json');
    else if (waiting.length >= MAX_WAITING) unavailable(res, 'Starting; try again in a moment.\n');
    else waiting.push([req, res]);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = host ? `${host}:${port}` : String(port);
      if (err.code === 'EADDRINUSE') {
        reject(
          new StartupError(`Port ${where} is in use by another process: stop it, or set ${variable} to a free port.`),
        );
      } else if (err.code === 'EACCES') {
        reject(new StartupError(`Port ${where} needs privileges this process lacks: set ${variable} above 1023.`));
      } else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as { port: number }).port,
    serve(next) {
      handler = next;
      for (const [req, res] of waiting.splice(0)) next(req, res);
    },
    async abandon() {
      for (const [, res] of waiting.splice(0)) unavailable(res, 'The service failed to start.\n');
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
