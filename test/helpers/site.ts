/**
 * A web site on 127.0.0.1 for tests that fetch: answers from a table of paths. Its public
 * name is `<name>.localtest.me:<port>` (a real public suffix, as link URLs need, and a zone known
 * for answering loopback), which the test app's fetcher resolves to loopback. With `tls`, it
 * answers HTTPS with the test certificate (testCertificate below), which that fetcher trusts.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** Where test sites live: the test app's fetcher resolves names under it to loopback (`private.*` to a private address). */
export const TEST_ZONE = 'localtest.me';

let made: Promise<{ key: string; cert: string }> | undefined;

/**
 * The certificate of the HTTPS test sites (`*.localtest.me` and 127.0.0.1), made once per test
 * process; the test app's fetcher trusts it (helpers/app.ts), as a real one trusts public CAs.
 */
export function testCertificate(): Promise<{ key: string; cert: string }> {
  made ??= generate([{ name: 'commonName', value: `sites.${TEST_ZONE}` }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: `*.${TEST_ZONE}` },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return made;
}

export type SiteAnswer =
  | { status?: number; type?: string; body: string | Buffer; headers?: Record<string, string> }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface TestSite {
  /** `http://<name>.localtest.me:<port>` (`https://` with `tls`) */
  origin: string;
  port: number;
  /** Sets (or replaces) what a path answers. */
  route(path: string, answer: SiteAnswer): void;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startSite(
  name = 'site',
  routes: Record<string, SiteAnswer> = {},
  o: { tls?: boolean } = {},
): Promise<TestSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
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
  };
  const server = o.tls ? https.createServer(await testCertificate(), handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${o.tls ? 'https' : 'http'}://${name}.${TEST_ZONE}:${port}`,
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
