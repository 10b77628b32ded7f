/**
 * The service's split layout on loopback, for the topology tests: a PostgreSQL server of its
 * own, an S3 server (s3rver) with one bucket, Varnish with the shipped VCL, and the roles as
 * separate processes (`node main.ts` with ROLE=router, api or worker), each with its log kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import S3rver from 's3rver';
import { type ObjectStorage, s3Storage } from '../../platform/store/objects.js';
import { freePort } from '../helpers/ports.js';
import { type PostgresServer, startPostgresServer } from '../helpers/postgresServer.js';
import { buildDist } from '../helpers/processes.js';
import { startVarnish, type Varnish } from '../helpers/varnish.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PAGE_DOMAIN = 'pages.test';
const BUCKET = 'pages';

export type Role = 'router' | 'api' | 'worker';

export interface ServiceProcess {
  role: Role;
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Every line it wrote. */
  lines: string[];
  alive(): boolean;
  /**
   * The first start. freePort() found its port free, but another process can bind it before
   * this one does (CI's other lanes pick ports too): then it starts again on another.
   */
  start(): Promise<void>;
  /** Starts it again (after a stop or a kill) on the same port. */
  restart(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  postgres: PostgresServer;
  db: pg.Pool;
  varnish: Varnish;
  storage: ObjectStorage;
  processes: ServiceProcess[];
  of(role: Role): ServiceProcess[];
  /** PUTs the bucket took, by key, since the last reset. */
  puts: Map<string, number>;
  /** The bucket: away (stop), taking connections and answering none (stall), or back (start). */
  s3: { stop(): Promise<void>; stall(): Promise<void>; start(): Promise<void> };
  /** The settings every process shares (what /etc/linkpage/linkpage.env would hold): no ROLE, PORT or DATA_DIR. */
  env: NodeJS.ProcessEnv;
  /** Each process's last lines and first warnings and errors, for a failing test's report. */
  logs(tail?: number): string;
  close(): Promise<void>;
}

/** `extraEnv`: settings added to every process's (DNS_SERVERS for the custom-domain test). */
export async function startCluster(
  counts: Record<Role, number> = { router: 2, api: 2, worker: 2 },
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Cluster> {
  // Once, before any process starts: each would otherwise build a stale dist/ under the others.
  buildDist();
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-topology-'));
  const postgres = await startPostgresServer();
  const db = new pg.Pool({ connectionString: postgres.url, max: 4 });
  db.on('error', () => {});

  // The bucket: the same port and folder across a stop and a start.
  const puts = new Map<string, number>();
  let s3Port = 0;
  let s3server: S3rver | null = null;
  let hole: { server: NetServer; held: Set<Socket> } | null = null;
  const s3 = {
    async start() {
      if (hole) {
        const { server, held } = hole;
        hole = null;
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
      s3server = new S3rver({
        address: '127.0.0.1',
        port: s3Port,
        silent: true,
        directory: path.join(dir, 's3'),
        configureBuckets: [{ name: BUCKET, configs: [] }],
      });
      (s3server as unknown as EventEmitter).on(
        'event',
        (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
          for (const r of e.Records) {
            if (r.eventName.includes('Put')) puts.set(r.s3.object.key, (puts.get(r.s3.object.key) ?? 0) + 1);
          }
        },
      );
      s3Port = (await s3server.run()).port;
    },
    async stop() {
      const server = s3server;
      s3server = null;
      const closing = server?.close();
      // Away at once: kept-alive connections of the processes would hold close() open while
      // they stay busy, and the bucket would go away only after the test's traffic.
      (server as unknown as { httpServer?: import('node:http').Server } | null)?.httpServer?.closeAllConnections();
      await closing;
    },
    async stall() {
      await s3.stop();
      const held = new Set<Socket>();
      const server = createNetServer((socket) => {
        held.add(socket);
        socket.on('close', () => held.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(s3Port, '127.0.0.1', resolve));
      hole = { server, held };
    },
  };
  await s3.start();
  const storage = s3Storage({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

  const varnishPort = await freePort();
  const ports: Record<Role, number[]> = { router: [], api: [], worker: [] };
  for (const role of ['router', 'api', 'worker'] as Role[]) {
    for (let i = 0; i < counts[role]; i++) ports[role].push(await freePort());
  }
  const env = {
    ...process.env,
    DATABASE_URL: postgres.url,
    STORAGE: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    SECRET: 'topology-secret-0123456789-0123456789',
    BASE_URL: 'http://apex.test',
    PAGE_DOMAIN,
    TRUST_PROXY: '1',
    CDN: 'varnish',
    VARNISH_URLS: `http://127.0.0.1:${varnishPort}`,
    LOG_LEVEL: 'info',
    NODE_NO_WARNINGS: '1',
    ...extraEnv,
  };

  const processes: ServiceProcess[] = [];
  for (const role of ['router', 'api', 'worker'] as Role[]) {
    ports[role].forEach((port, i) => {
      processes.push(
        serviceProcess(role, `${role}${i + 1}`, port, {
          ...env,
          ROLE: role,
          PORT: String(port),
          DATA_DIR: path.join(dir, `${role}${i + 1}`),
        }),
      );
    });
  }
  const cluster: Cluster = {
    postgres,
    db,
    varnish: undefined as unknown as Varnish,
    storage,
    processes,
    of: (role) => processes.filter((p) => p.role === role),
    puts,
    s3,
    env,
    logs: (tail = 30) => processes.map((p) => `--- ${p.name} (${state(p)})\n${report(p.lines, tail)}`).join('\n'),
    async close() {
      await Promise.all(processes.map((p) => p.stop()));
      await cluster.varnish?.stop();
      await db.end().catch(() => {});
      await s3.stop();
      await postgres.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(processes.map((p) => p.start()));
    cluster.varnish = await startVarnish({
      routers: cluster.of('router').map(({ port }) => ({ host: '127.0.0.1', port })),
      pageDomain: PAGE_DOMAIN,
      port: varnishPort,
    });
  } catch (err) {
    const logs = cluster.logs();
    await cluster.close();
    throw new Error(`${(err as Error).message}\n${logs}`);
  }
  return cluster;
}

/**
 * A process's last lines, after the first of its earlier warnings and errors (pino's levels 40
 * and up), each kind once: a failure under load is often far above the last lines.
 */
function report(lines: string[], tail: number): string {
  const last = lines.slice(-tail);
  const kinds = new Set<string>();
  const earlier: string[] = [];
  for (const line of lines.slice(0, -tail || undefined)) {
    const level = /"level":(\d+)/.exec(line);
    const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line;
    if (!level || Number(level[1]) < 40 || kinds.has(msg) || earlier.length >= 10) continue;
    kinds.add(msg);
    earlier.push(line.slice(0, 4_000));
  }
  return [
    ...(earlier.length ? ['(earlier warnings and errors, the first of each)', ...earlier, '(the last lines)'] : []),
    ...last,
  ].join('\n');
}

/** alive, or how it ended: a process killed from outside (SIGKILL, a crash) leaves no line of its own. */
function state(p: ServiceProcess): string {
  if (p.alive()) return 'alive';
  return p.child?.signalCode ? `exited on ${p.child.signalCode}` : `exited with status ${p.child?.exitCode}`;
}

function serviceProcess(role: Role, name: string, port: number, env: NodeJS.ProcessEnv): ServiceProcess {
  const p: ServiceProcess = {
    role,
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child: undefined as unknown as ChildProcess,
    lines: [],
    alive: () => Boolean(p.child) && p.child.exitCode === null && p.child.signalCode === null,
    async start() {
      for (let attempt = 1; ; attempt++) {
        try {
          return await p.restart();
        } catch (err) {
          if (attempt === 3 || !p.lines.some((l) => l.includes('is in use by another process'))) throw err;
          p.port = await freePort();
          p.url = `http://127.0.0.1:${p.port}`;
          env.PORT = String(p.port);
          p.lines.length = 0;
        }
      }
    },
    async restart() {
      // As the units run it (ops/deploy/*.service): the build, which a start compiles nothing for.
      const child = spawn(process.execPath, ['ops/build/start.mjs'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      p.child = child;
      let partial = '';
      const keep = (c: Buffer) => {
        const text = partial + c.toString();
        const parts = text.split('\n');
        partial = parts.pop() ?? '';
        p.lines.push(...parts.filter(Boolean));
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      await untilReady(p);
    },
    async stop(signal = 'SIGTERM') {
      if (!p.alive()) return;
      const exited = new Promise((resolve) => p.child.once('exit', resolve));
      p.child.kill(signal);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    },
  };
  return p;
}

async function untilReady(p: ServiceProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!p.alive()) throw new Error(`${p.name} exited while starting`);
    const ready = await fetch(`${p.url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${p.name} was not ready within 60 s`);
}
