/**
 * `npm start` as an operator meets it: real processes started through npm, on the embedded
 * database in a folder of their own (DATABASE_URL is not passed on: these are about PGlite's
 * folder and the process tree, whatever database the run's other tests use).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../helpers/ports.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Started {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
  /** Settles once npm and every process that shares its output (the service) have closed it: all of it is read. */
  closed: Promise<void>;
}

function npm(args: string[], env: Record<string, string>): Started {
  const { DATABASE_URL: _, ...inherited } = process.env;
  const child = spawn('npm', args, { cwd: ROOT, env: { ...inherited, LOG_LEVEL: 'info', ...env } });
  const started: Started = {
    child,
    stdout: [],
    stderr: [],
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    closed: new Promise((resolve) => child.once('close', () => resolve())),
  };
  child.stdout!.on('data', (d) => started.stdout.push(String(d)));
  child.stderr!.on('data', (d) => started.stderr.push(String(d)));
  return started;
}

/** What the process wrote to stderr, less npm's own notices. */
function complaint(s: Started): string[] {
  return s.stderr
    .join('')
    .split('\n')
    .filter((l) => l && !l.startsWith('npm warn') && !l.startsWith('npm notice'));
}

async function waitForReady(port: number, s: Started): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (s.child.exitCode !== null) throw new Error(`npm start exited: ${s.stderr.join('')}`);
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('npm start did not become ready');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Server extends Started {
  port: number;
  dataDir: string;
}

/** `npm start` on a free port with a data folder of its own, once it is ready. */
async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-start-'));
  const port = await freePort();
  const server = Object.assign(npm(['start'], { PORT: String(port), DATA_DIR: dataDir }), { port, dataDir });
  try {
    await waitForReady(port, server);
  } catch (err) {
    await removeServer(server);
    throw err;
  }
  return server;
}

/** Ends a server a test left running (the service under npm too, not only npm) and removes its folder. */
async function removeServer(s: Server): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) {
    const lock = path.join(s.dataDir, 'db.lock');
    if (existsSync(lock)) process.kill(JSON.parse(readFileSync(lock, 'utf8')).pid, 'SIGKILL');
    s.child.kill('SIGKILL');
    await s.exited;
  }
  await rm(s.dataDir, { recursive: true, force: true });
}

describe('npm start (the process an operator runs)', function () {
  this.timeout(180_000);
  // The server the refusals meet: none of them stops it. A test that stops a server starts its own.
  let running: Server;

  before(async () => {
    // Built once here, so no start below spends its time (or its first lines) building.
    const built = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).to.equal(0);
    running = await startServer();
  });
  after(async () => {
    if (running) await removeServer(running);
  });

  it('writes nothing but JSON log lines, the OAuth library loading on the first OAuth request included', async () => {
    const own = await startServer();
    try {
      const metadata = await fetch(`http://127.0.0.1:${own.port}/.well-known/oauth-authorization-server`);
      expect(metadata.status).to.equal(200);
      // Everything it wrote, the stop's lines included, once it has ended and its output is closed.
      own.child.kill('SIGTERM');
      await own.closed;
      expect(complaint(own), 'stderr').to.deep.equal([]);
      const lines = own.stdout
        .join('')
        .split('\n')
        .filter((l) => l && !l.startsWith('>'));
      for (const line of lines) expect(() => JSON.parse(line), line).to.not.throw();
      expect(
        lines.some((l) => l.includes('"msg":"stopped"')),
        `the stop's line among them:\n${lines.join('\n')}`,
      ).to.equal(true);
      // On Node 20 the library calls the runtime unsupported: that goes to the log, at warn.
      if (process.versions.node.startsWith('20.'))
        expect(
          lines.some((l) => l.includes('"library":"oidc-provider"') && l.includes('Unsupported runtime')),
        ).to.equal(true);
    } finally {
      await removeServer(own);
    }
  });

  it('refuses a start on a port in use with one line, without touching its data folder', async () => {
    const otherData = path.join(tmpdir(), `linkpage-never-${process.pid}`);
    const second = npm(['start'], { PORT: String(running.port), DATA_DIR: otherData });
    expect(await second.exited).to.equal(1);
    expect(complaint(second)).to.deep.equal([
      `Cannot start: Port ${running.port} is in use by another process: stop it, or set PORT to a free port.`,
    ]);
    expect(existsSync(otherData), 'the data folder was never made').to.equal(false);
  });

  it('refuses a second server on the same data folder with one line naming the process that holds it', async () => {
    const holder = JSON.parse(readFileSync(path.join(running.dataDir, 'db.lock'), 'utf8')).pid as number;
    const second = npm(['start'], { PORT: String(await freePort()), DATA_DIR: running.dataDir });
    expect(await second.exited).to.equal(1);
    const lines = complaint(second);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(`^Cannot start: The embedded database ${running.dataDir}/db is in use by process ${holder} \\(`),
    );
    expect((await fetch(`http://127.0.0.1:${running.port}/readyz`)).status, 'the first still serves').to.equal(200);
  });

  it('refuses the command-line tools on a held data folder the same way', async () => {
    for (const args of [
      ['run', 'ban', '--', 'somebody', 'spam'],
      ['run', 'republish'],
    ]) {
      const tool = npm(args, { DATA_DIR: running.dataDir });
      expect(await tool.exited, args.join(' ')).to.equal(1);
      const lines = complaint(tool);
      expect(lines, args.join(' ')).to.have.length(1);
      expect(lines[0]).to.match(/^Cannot run: The embedded database .* is in use by process \d+ /);
    }
  });

  it('stops cleanly on a SIGTERM that comes while it is still starting (the port answers, the database opens)', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'linkpage-start-'));
    const early = await freePort();
    const starting = npm(['start'], { PORT: String(early), DATA_DIR: fresh });
    try {
      // /healthz answers as soon as the port is bound, before the database is opened.
      while ((await fetch(`http://127.0.0.1:${early}/healthz`).catch(() => null))?.status !== 200) {
        if (starting.child.exitCode !== null) throw new Error(starting.stderr.join(''));
        await new Promise((r) => setTimeout(r, 20));
      }
      const seenBefore = starting.stdout.join('');
      starting.child.kill('SIGTERM');
      expect(seenBefore, 'the signal came before the start line').not.to.include('listening on');
      const code = await starting.exited;
      expect(code, `exit code; it wrote:\n${starting.stdout.join('')}${starting.stderr.join('')}`).to.be.oneOf([
        0,
        null,
      ]);
      expect(starting.stdout.join('')).to.include('"msg":"stopped"');
      expect(existsSync(path.join(fresh, 'db.lock')), 'the lock is released').to.equal(false);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal} sent to npm's own process, leaving no process behind and the folder free`, async () => {
      const own = await startServer();
      try {
        const service = JSON.parse(readFileSync(path.join(own.dataDir, 'db.lock'), 'utf8')).pid as number;
        expect(service, 'the service is a process of its own under npm').to.not.equal(own.child.pid);
        own.child.kill(signal);
        expect(await own.exited).to.be.oneOf([0, null]);
        for (let i = 0; i < 100 && isRunning(service); i++) await new Promise((r) => setTimeout(r, 100));
        expect(isRunning(service), 'the node process is gone').to.equal(false);
        expect(existsSync(path.join(own.dataDir, 'db.lock')), 'the lock is released').to.equal(false);
        expect(await fetch(`http://127.0.0.1:${own.port}/healthz`).catch(() => 'refused')).to.equal('refused');
        expect(own.stdout.join('')).to.include('"msg":"stopped"');
      } finally {
        await removeServer(own);
      }
    });
  }
});
