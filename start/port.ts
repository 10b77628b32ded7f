/**
 * The port is taken first, before any module of the service loads or the database opens: a port
 * already in use ends the start at once with one line, rather than after the database was
 * opened (a second start used to open the embedded database the first one held).
 *
 * Until the service is ready, requests wait; `/healthz` answers at once (the process is up).
 */
import http from 'node:http';
import { StartupError } from '../core/errors.js';

export interface BoundPort {
  server: http.Server;
  port: number;
  /** Hands the requests (those waiting too) to the service's handler. */
  serve(handler: http.RequestListener): void;
}

export async function bindPort(port: number, host?: string): Promise<BoundPort> {
  let handler: http.RequestListener | null = null;
  const waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else if (req.url === '/healthz') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    else waiting.push([req, res]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = host ? `${host}:${port}` : String(port);
      if (err.code === 'EADDRINUSE') {
        reject(new StartupError(`Port ${where} is in use by another process: stop it, or set PORT to a free port.`));
      } else if (err.code === 'EACCES') {
        reject(new StartupError(`Port ${where} needs privileges this process lacks: set PORT above 1023.`));
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
  };
}
