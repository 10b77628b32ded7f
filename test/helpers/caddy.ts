/**
 * Debian's Caddy with the shipped ops/deploy/caddy/Caddyfile, for the topology test: the file's
 * marked parts replaced for loopback (high ports, no admin endpoint, Caddy's own internal CA
 * instead of a public one, no own names: nginx is not part of the test), run in the foreground
 * as an unprivileged user (nobody, when the test runs as root) with its data and config in a
 * folder of its own, where the internal CA's root certificate is read for the visitors to trust.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

const CADDYFILE = new URL('../../ops/deploy/caddy/Caddyfile', import.meta.url);
const CADDY = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));
/** The user Caddy runs as when the test runs as root (Debian's nobody:nogroup). */
const NOBODY = 65534;

export interface CaddyOptions {
  /** Where Caddy asks before it issues a certificate (a router's /_/domain-check). */
  ask: string;
  /** The Varnish that custom domains are passed to. */
  varnish: { host: string; port: number };
}

export interface Caddy {
  /** Its https port on 127.0.0.1. */
  httpsPort: number;
  /** The internal CA's root certificate (PEM), for visitors to trust. */
  root(): Promise<string>;
  /** Every line it wrote. */
  lines: string[];
  stop(): Promise<void>;
}

/** The shipped Caddyfile with its marked parts made for loopback. */
export async function caddyfileFor(o: CaddyOptions & { httpPort: number; httpsPort: number }): Promise<string> {
  const shipped = await readFile(CADDYFILE, 'utf8');
  const global = [
    '\tadmin off',
    `\thttp_port ${o.httpPort}`,
    `\thttps_port ${o.httpsPort}`,
    '\tdefault_bind 127.0.0.1',
    // Every certificate from Caddy's own CA (as `tls internal`), kept out of the system's trust store.
    '\tlocal_certs',
    '\tskip_install_trust',
  ].join('\n');
  const parts: [string, string][] = [
    ['global options', global],
    ['ask', `\t\task ${o.ask}`],
    ['own names', ''],
    ['varnish', `\treverse_proxy ${o.varnish.host}:${o.varnish.port}`],
  ];
  return parts.reduce((text, [marker, body]) => replaceBetween(text, marker, body), shipped);
}

function replaceBetween(text: string, marker: string, body: string): string {
  const begin = new RegExp(`(# BEGIN ${marker}[^\\n]*\\n)[\\s\\S]*?(\\n[\\t ]*# END ${marker})`);
  if (!begin.test(text)) throw new Error(`ops/deploy/caddy/Caddyfile has no "# BEGIN ${marker}" part`);
  return text.replace(begin, (_, head: string, tail: string) => `${head}${body}${tail}`);
}

export async function startCaddy(o: CaddyOptions): Promise<Caddy> {
  if (!CADDY) throw new Error('caddy is missing: install it (apt-get install caddy)');
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-caddy-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'Caddyfile');
  await writeFile(config, await caddyfileFor({ ...o, httpPort, httpsPort }), { mode: 0o644 });
  const data = path.join(dir, 'data');
  await mkdir(data);
  await mkdir(path.join(dir, 'config'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const p of [dir, config, data, path.join(dir, 'config')]) await chown(p, NOBODY, NOBODY);

  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_DATA_HOME: data,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
  };
  const child: ChildProcess = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env,
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  const lines: string[] = [];
  const keep = (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };

  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`caddy exited: ${lines.join('\n')}`);
    if (await listening(httpsPort)) break;
    if (i > 150) {
      await stop();
      throw new Error(`caddy did not listen within 15 s: ${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const rootFile = path.join(data, 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  return { httpsPort, lines, root: () => readFile(rootFile, 'utf8'), stop };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
