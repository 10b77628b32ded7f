/**
 * The page host behind Varnish (ops/deploy/varnish/default.vcl), on loopback, the app as `npm start`
 * runs it (embedded default, CDN=varnish): cached page views per second next to nginx serving
 * the same HTML file from disk with the same headers (same load tool, rounds alternating), the hit ratio of a view load
 * over many pages while they are edited, and the time from a PATCH to its new HTML through
 * Varnish next to the same straight from the page host.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/ports.js';
import { startVarnish, type Varnish } from '../test/helpers/varnish.js';
import { call, closeConnections } from './call.js';
import { embeddedApp, served, twentyLinks } from './embedded.js';
import { percentile } from './stats.js';

/** Headers a server writes of its own (or of the copy it serves): not copied onto nginx's answer. */
const OWN_HEADERS = new Set([
  'date',
  'content-length',
  'connection',
  'keep-alive',
  'age',
  'accept-ranges',
  'x-cache',
  'x-varnish',
  'via',
  'etag',
  'last-modified',
  'content-type',
]);

/** The headers of an answer as nginx `add_header` lines (double-quoted, as nginx reads them). */
function addHeaders(headers: http.IncomingHttpHeaders): string {
  return Object.entries(headers)
    .filter(([name]) => !OWN_HEADERS.has(name))
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => [name, v]))
    .map(([name, v]) => `add_header ${name} "${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}" always;`)
    .join(' ');
}

/**
 * nginx serving one folder on a free port, in the foreground, with `headers` on every answer
 * (the page's own, so that both servers send the same bytes).
 */
async function startNginx(root: string, headers: string): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const conf = path.join(root, 'nginx.conf');
  await writeFile(
    conf,
    `worker_processes 2;\npid ${root}/nginx.pid;\nerror_log ${root}/error.log;\nevents { worker_connections 1024; }\n` +
      `http { access_log off; client_body_temp_path ${root}; proxy_temp_path ${root}; fastcgi_temp_path ${root}; uwsgi_temp_path ${root}; scgi_temp_path ${root};\n` +
      `  server { listen 127.0.0.1:${port}; root ${root}; location / { default_type 'text/html; charset=utf-8'; etag off; ${headers} } } }\n`,
  );
  const child: ChildProcess = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    const up = await call(port, 'GET', '/index.html', {}).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function load(port: number, requests: { path: string; headers: Record<string, string> }[], seconds: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    requests: requests.map((r) => ({ method: 'GET', path: r.path, headers: r.headers })),
    connections: 50,
    pipelining: 1,
    duration: seconds,
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

/**
 * The floor under the shipped VCL: Varnish keeping the router's answer and serving it, its own
 * rules doing nothing else (no host checks, no Accept or Accept-Encoding reduced, no headers
 * removed, no backend chosen by a director).
 */
function floorVcl(router: { host: string; port: number }): string {
  return [
    'vcl 4.1;',
    `backend router1 { .host = "${router.host}"; .port = "${router.port}"; }`,
    'sub vcl_recv { return (hash); }',
    'sub vcl_backend_response { set beresp.ttl = 1h; return (deliver); }',
    '',
  ].join('\n');
}

export interface CdnBench {
  varnishRps: number;
  nginxRps: number;
  ratios: number[];
  /** The same page through the shipped VCL with two varnishlog readers, as the tests run it. */
  loggedRps: number;
  /** Through the floor VCL (floorVcl). */
  floorRps: number;
  hitRatio: number;
  hits: number;
  misses: number;
  editsDuringLoad: number;
  edits: number;
  throughVarnish: { p50: number; p99: number };
  direct: { p50: number; p99: number };
}

export async function cdnBench(o: { rounds?: number; seconds?: number; pages?: number; edits?: number } = {}) {
  const rounds = o.rounds ?? 3;
  const seconds = o.seconds ?? 5;
  const varnishPort = await freePort();
  const app = await embeddedApp({
    onDisk: true,
    env: { CDN: 'varnish', VARNISH_URLS: `http://127.0.0.1:${varnishPort}`, TRUST_PROXY: '1' },
  });
  const { server, port } = await served(app.handler);
  const root = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-cdn-'));
  // nginx's workers (user nobody when started as root) read the page from here.
  await chmod(root, 0o755);
  let varnish: Varnish | undefined;
  let logged: Varnish | undefined;
  let floor: Varnish | undefined;
  let nginx: { stop(): Promise<void>; port: number } | undefined;
  try {
    const routers = [{ host: '127.0.0.1', port }];
    // As deployed: nothing reads its shared log (an operator's varnishncsa would, at a cost).
    varnish = await startVarnish({ routers, pageDomain: 'pages.test', port: varnishPort, logReaders: false });
    logged = await startVarnish({ routers, pageDomain: 'pages.test' });
    floor = await startVarnish({ routers, pageDomain: 'pages.test', vcl: floorVcl(routers[0]), logReaders: false });
    const json = { 'content-type': 'application/json' };
    const blocks = twentyLinks();
    const pages: { name: string; id: string; key: string }[] = [];
    for (let i = 0; i < (o.pages ?? 200); i++) {
      const name = `cdn-bench-${i}`;
      const made = await call(
        port,
        'POST',
        '/api/agent/pages',
        { ...json, 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` },
        JSON.stringify({ username: name, page: { blocks } }),
      );
      const body = JSON.parse(made.text);
      if (made.status !== 201) throw new Error(`create: ${made.status} ${made.text}`);
      pages.push({ name, id: body.page.id, key: body.apiKey });
    }
    const auth = (p: { key: string }) => ({ ...json, authorization: `Bearer ${p.key}` });
    const host = (name: string) => ({ host: `${name}.pages.test`, accept: 'text/html' });

    // (a) One cached page through Varnish, and the same bytes from disk through nginx; the
    // shipped VCL with log readers and the floor VCL beside them.
    const page = await call(varnishPort, 'GET', '/', host(pages[0].name));
    await writeFile(path.join(root, 'index.html'), page.text);
    nginx = await startNginx(root, addHeaders(page.headers));
    const one = [{ path: '/', headers: host(pages[0].name) }];
    const ratios: number[] = [];
    let varnishRps = 0;
    let nginxRps = 0;
    let loggedRps = 0;
    let floorRps = 0;
    for (let i = 0; i < rounds; i++) {
      const v = await load(varnishPort, one, seconds);
      const n = await load(nginx.port, [{ path: '/index.html', headers: {} }], seconds);
      loggedRps += (await load(logged.port, one, seconds)) / rounds;
      floorRps += (await load(floor.port, one, seconds)) / rounds;
      varnishRps += v / rounds;
      nginxRps += n / rounds;
      ratios.push(v / n);
    }
    await logged.stop();
    await floor.stop();

    // (b) Views over every page while pages are edited (each edit purges one page).
    const before = await varnish.stats();
    let editing = true;
    let editsDuringLoad = 0;
    const editor = (async () => {
      while (editing) {
        const p = pages[editsDuringLoad % pages.length];
        await call(port, 'PATCH', `/api/profiles/${p.id}`, auth(p), JSON.stringify({ bio: `Edit ${editsDuringLoad}` }));
        editsDuringLoad++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await load(
      varnishPort,
      pages.map((p) => ({ path: '/', headers: host(p.name) })),
      seconds * 2,
    );
    editing = false;
    await editor;
    const after = await varnish.stats();
    const hits = after.hits - before.hits;
    const misses = after.misses - before.misses;

    // (c) PATCH -> new HTML, through Varnish and straight from the page host, alternating.
    const times = { varnish: [] as number[], direct: [] as number[] };
    const edits = o.edits ?? 200;
    for (let i = 0; i < edits; i++) {
      for (const [via, target] of [
        ['varnish', varnishPort],
        ['direct', port],
      ] as const) {
        const p = pages[(2 * i + (via === 'direct' ? 1 : 0)) % pages.length];
        await call(target, 'GET', '/', host(p.name)); // cached (or read) before the edit
        const marker = `Timed edit ${i} ${via}`;
        const t0 = performance.now();
        const patched = await call(port, 'PATCH', `/api/profiles/${p.id}`, auth(p), JSON.stringify({ bio: marker }));
        if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
        while (!(await call(target, 'GET', '/', host(p.name))).text.includes(marker)) {
          // The PATCH is answered after the purge: this loop should never turn.
        }
        times[via].push(performance.now() - t0);
      }
    }
    const pct = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
    return {
      varnishRps,
      nginxRps,
      ratios,
      loggedRps,
      floorRps,
      hitRatio: hits / (hits + misses),
      hits,
      misses,
      editsDuringLoad,
      edits,
      throughVarnish: pct(times.varnish),
      direct: pct(times.direct),
    } satisfies CdnBench;
  } finally {
    await nginx?.stop();
    await varnish?.stop();
    await logged?.stop();
    await floor?.stop();
    server.close();
    closeConnections();
    await app.close();
    await rm(root, { recursive: true, force: true });
  }
}
