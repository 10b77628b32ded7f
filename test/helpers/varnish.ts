/**
 * Debian's Varnish with the shipped ops/deploy/varnish/default.vcl, for tests and benchmarks: the
 * VCL's four marked parts (routers, purgers, page domain, own hosts) replaced for loopback, varnishd in
 * the foreground in a folder of its own, its counters read with varnishstat.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';

const VCL = new URL('../../ops/deploy/varnish/default.vcl', import.meta.url);
const VARNISHD = ['/usr/sbin/varnishd', '/usr/bin/varnishd'].find((p) => existsSync(p));
const VARNISHLOG = ['/usr/bin/varnishlog', '/usr/sbin/varnishlog'].find((p) => existsSync(p)) ?? 'varnishlog';

export interface VarnishOptions {
  routers: { host: string; port: number }[];
  /** PAGE_DOMAIN without a port, e.g. `pages.test`. */
  pageDomain: string;
  /** The service's own names besides PAGE_DOMAIN itself (BASE_URL's host, MEDIA_URL's), never custom domains. */
  ownHosts?: string[];
  /** Addresses allowed to purge (loopback's 127.0.0.1 by default). */
  purgers?: string[];
  /** The port to listen on (a free one by default; given when the service must know it first). */
  port?: number;
  /**
   * false: no varnishlog reading the shared log (`failures()` and `sick()` then know nothing), as a
   * benchmark wants it: reading and grouping every request's records takes a core's share.
   */
  logReaders?: boolean;
  /** A VCL of its own instead of the shipped one (a benchmark's floor). */
  vcl?: string;
}

export interface Varnish {
  port: number;
  url: string;
  /** Hits, misses and passes since the start. */
  stats(): Promise<{ hits: number; misses: number; passes: number }>;
  /**
   * Every request Varnish answered with a 5xx since the start, as varnishlog groups it (the
   * backends tried, their errors and timings): what a test prints when a visitor got one.
   */
  failures(): Promise<string>;
  /**
   * Whether the health probe has marked this router (`router1`, `router2`, … in the order given)
   * sick, by the last probe result Varnish logged for it (Backend_health: "Went sick", "Still
   * sick"); false while it has logged none.
   */
  sick(router: string): boolean;
  stop(): Promise<void>;
}

/** The shipped VCL with its marked parts made for these routers, purgers, page domain and own hosts. */
export async function vclFor(o: VarnishOptions): Promise<string> {
  const shipped = await readFile(VCL, 'utf8');
  const names = o.routers.map((_, i) => `router${i + 1}`);
  const backends = [
    ...o.routers.map(
      (r, i) => `backend ${names[i]} { .host = "${r.host}"; .port = "${r.port}"; .probe = router_health; }`,
    ),
    '',
    'sub vcl_init {',
    '  new routers = directors.shard();',
    ...names.map((n) => `  routers.add_backend(${n});`),
    '  routers.reconfigure();',
    '}',
  ].join('\n');
  const purgers = ['acl purgers {', ...(o.purgers ?? ['127.0.0.1']).map((a) => `  "${a}";`), '}'].join('\n');
  const domain = o.pageDomain.replace(/\./g, '\\.');
  const pageHost = `  if (req.http.host !~ "(?i)^[a-z0-9-]+\\.${domain}(:[0-9]+)?$") {`;
  const own = [o.pageDomain, ...(o.ownHosts ?? ['apex.test'])].map((h) => h.replace(/\./g, '\\.')).join('|');
  const ownHosts = `    if (req.http.host ~ "(?i)^(${own})\\.?(:[0-9]+)?$") {`;
  const parts: [string, string][] = [
    ['backends', backends],
    ['purgers', purgers],
    ['page domain', pageHost],
    ['own hosts', ownHosts],
  ];
  return parts.reduce((text, [marker, body]) => replaceBetween(text, marker, body), shipped);
}

function replaceBetween(text: string, marker: string, body: string): string {
  const begin = new RegExp(`(# BEGIN ${marker}[^\\n]*\\n)[\\s\\S]*?(\\n[ ]*# END ${marker})`);
  if (!begin.test(text)) throw new Error(`ops/deploy/varnish/default.vcl has no "# BEGIN ${marker}" part`);
  return text.replace(begin, (_, head: string, tail: string) => `${head}${body}${tail}`);
}

export async function startVarnish(o: VarnishOptions): Promise<Varnish> {
  if (!VARNISHD) {
    throw new Error(
      'varnishd is missing: install varnish and varnish-modules (apt-get install varnish varnish-modules)',
    );
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-varnish-'));
  // Run as root, varnishd reads the VCL as its own unprivileged user.
  await chmod(dir, 0o755);
  const vcl = path.join(dir, 'default.vcl');
  await writeFile(vcl, o.vcl ?? (await vclFor(o)), { mode: 0o644 });
  const port = o.port ?? (await freePort());
  const work = path.join(dir, 'work');
  const child: ChildProcess = spawn(
    VARNISHD,
    ['-F', '-n', work, '-a', `127.0.0.1:${port}`, '-T', 'none', '-f', vcl, '-s', 'malloc,64m', '-p', 'vsl_space=1M'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (c: Buffer) => {
    output += c.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  let log: ChildProcess | undefined;
  let health: ChildProcess | undefined;
  const stop = async () => {
    log?.kill('SIGTERM');
    health?.kill('SIGTERM');
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };

  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`varnishd exited: ${output}`);
    const up = await fetch(`${url}/`, { method: 'PURGE', headers: { 'xkey-purge': 'ready' } }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    // It compiles the VCL with the C compiler first: seconds, and more on a loaded machine (a CI
    // run beside the other lanes once took over 10 s).
    if (i > 300) {
      await stop();
      throw new Error(`varnishd did not answer within 30 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  // varnishlog reads the shared log from now on, keeping only the requests answered 5xx.
  const failuresFile = path.join(dir, 'failures.log');
  const lastProbe = new Map<string, string>();
  if (o.logReaders !== false) readLogs();
  function readLogs() {
    log = spawn(VARNISHLOG, ['-n', work, '-g', 'request', '-q', 'RespStatus >= 500', '-w', failuresFile, '-A', '-u'], {
      stdio: 'ignore',
    });
    log.on('error', () => {}); // no varnishlog: failures() says so
    // And each probe's result from now on.
    health = spawn(VARNISHLOG, ['-n', work, '-g', 'raw', '-i', 'Backend_health', '-u'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    health.on('error', () => {});
    let partial = '';
    health.stdout?.on('data', (c: Buffer) => {
      const lines = (partial + c.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        // "0 Backend_health - router1 Went sick -------- 1 2 3 …" (its VCL's name first on some versions)
        const m = /Backend_health\s+-\s+(?:[^\s.]+\.)?(\S+)\s+(?:Still|Went|Back)\s+(healthy|sick)\b/.exec(line);
        if (m) lastProbe.set(m[1], m[2]);
      }
    });
  }

  return {
    port,
    url,
    async failures() {
      return readFile(failuresFile, 'utf8').catch(() => '(varnishlog wrote nothing)');
    },
    sick: (router) => lastProbe.get(router) === 'sick',
    async stats() {
      const { stdout } = await promisify(execFile)('varnishstat', ['-n', work, '-1', '-j']);
      const counters = JSON.parse(stdout);
      const value = (name: string): number => (counters.counters ?? counters)[name]?.value ?? 0;
      return { hits: value('MAIN.cache_hit'), misses: value('MAIN.cache_miss'), passes: value('MAIN.s_pass') };
    },
    stop,
  };
}
