/**
 * A web site on 127.0.0.1 for tests that fetch: answers from a table of paths. Its public
 * name is `<name>.localtest.me:<port>` (a real public suffix, as link URLs need, and a zone known
 * for answering loopback), which the test app's fetcher resolves to loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where test sites live: the test app's fetcher resolves names under it to loopback (`private.*` to a private address). */
export const TEST_ZONE = 'localtest.me';

export type SiteAnswer =
  | { status?: number; type?: string; body: string | Buffer; headers?: Record<string, string> }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface TestSite {
  /** `http://<name>.localtest.me:<port>` */
  origin: string;
  port: number;
  /** Sets (or replaces) what a path answers. */
  route(path: string, answer: SiteAnswer): void;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startSite(name = 'site', routes: Record<string, SiteAnswer> = {}): Promise<TestSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const answer = table.get(path) ?? table.get(path.split('?')[0]);
    if (!answer) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    if (typeof answer === 'function') return answer(req, res);
    res.writeHead(answer.status ?? 200, {
      'content-type': answer.type ?? 'text/html; charset=utf-8',
      ...answer.headers,
    });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${name}.${TEST_ZONE}:${port}`,
    port,
    route: (path, answer) => void table.set(path, answer),
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
