/**
 * A PostgreSQL server of the test's own (initdb into a temporary folder, on a free loopback
 * port), for tests that stop and restart the database under the service: the shared server the
 * other tests use must not go away. Run as root, the server runs as the `postgres` user.
 */
import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';

const run = promisify(execFile);

export interface PostgresServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).sort(
    (a, b) => Number(b) - Number(a),
  );
  if (versions.length === 0) throw new Error('PostgreSQL server binaries are missing: apt-get install postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = await binDir();
  const root = await mkdtemp(path.join(tmpdir(), 'linkpage-pg-'));
  const data = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(gid.trim()));
    await chmod(root, 0o755);
  }
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : run(path.join(bin, cmd), args);

  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'root', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(root, 'server.log'), '-w', '-t', '30', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']).catch(() => {});
  };
  await start();
  return {
    url: `postgres://root@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
