/**
 * A setting that points at something that refuses, as an operator meets it: the real process
 * (`node ops/build/start.mjs`, ROLE=api on a PostgreSQL of the test's own and an s3rver bucket)
 * ends before it says "listening", with one line naming the variable, the cause and the fix,
 * and no stack; exit status 2 when a restart cannot help, 1 when the server may come back.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../helpers/ports.js';
import { type PostgresServer, startPostgresServer } from '../helpers/postgresServer.js';
import { buildDist, runNode, startNode } from '../helpers/processes.js';
import { s3Bucket } from '../helpers/s3.js';

describe('a start with a setting that refuses (ops/start/diagnose.ts)', function () {
  this.timeout(180_000);
  const bucket = s3Bucket();
  let postgres: PostgresServer;
  let dir: string;
  let env: () => Record<string, string>;

  before(async () => {
    buildDist();
    postgres = await startPostgresServer();
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-settings-'));
    env = () => ({
      ROLE: 'api',
      PORT: '0',
      DATA_DIR: dir,
      DATABASE_URL: postgres.url,
      STORAGE: 's3',
      S3_BUCKET: 'pages',
      S3_ENDPOINT: bucket.endpoint(),
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      SECRET: 'settings-secret-0123456789-0123456789',
      BASE_URL: 'http://apex.test',
      PAGE_DOMAIN: 'pages.test',
      LOG_LEVEL: 'info',
    });
  });
  after(async () => {
    await postgres?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts with `changes`; the exit code, the stderr lines and whether it ever said it listens. */
  async function start(changes: Record<string, string>) {
    const { code, stdout, stderr } = await runNode([], { ...env(), ...changes });
    return { code, stderr, listened: stdout.some((l) => l.includes('listening')) };
  }

  it('writes only JSON lines to stdout and nothing to stderr on a good start (process warnings such as the AWS SDK warning, go into the log)', async () => {
    const run = startNode([], { ...env(), PORT: String(await freePort()) });
    try {
      while (!run.stdout.join('').includes('listening')) {
        if (run.child.exitCode !== null) throw new Error(run.stderr.join(''));
        await new Promise((resolve) => run.child.stdout!.once('data', resolve));
      }
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).to.equal(0);
    expect(run.lines('stderr')).to.deep.equal([]);
    for (const line of run.lines('stdout')) expect(() => JSON.parse(line), line).not.to.throw();
  });

  const storageCases: [string, Record<string, string>, number, RegExp][] = [
    [
      'a bucket that does not exist',
      { S3_BUCKET: 'nope' },
      2,
      /^Configuration error: S3_BUCKET: there is no bucket "nope" at http:\/\/127\.0\.0\.1:\d+: create it, or correct S3_BUCKET \(or S3_ENDPOINT\)\.$/,
    ],
    [
      'credentials the bucket does not know',
      { AWS_ACCESS_KEY_ID: 'WRONG' },
      2,
      /^Configuration error: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: the bucket "pages" at .* refuses these credentials \(InvalidAccessKeyId\): /,
    ],
    [
      'an endpoint where nothing answers',
      { S3_ENDPOINT: 'http://127.0.0.1:9' },
      1,
      /^Cannot start: S3_ENDPOINT: nothing answers at http:\/\/127\.0\.0\.1:9 \(connection refused\): start the S3 service there, or correct S3_ENDPOINT\.$/,
    ],
  ];
  for (const [what, changes, status, line] of storageCases) {
    it(`ends before "listening" with one line naming the variable on ${what} (exit ${status})`, async () => {
      const { code, stderr, listened } = await start(changes);
      expect(listened).to.equal(false);
      expect(stderr, stderr.join('\n')).to.have.length(1);
      expect(stderr[0]).to.match(line);
      expect(code).to.equal(status);
    });
  }

  it('ends a router on PostgreSQL without SECRET at once: exit 2, one line naming it', async () => {
    const { code, stderr, listened } = await start({ ROLE: 'router', SECRET: '' });
    expect([code, listened]).to.deep.equal([2, false]);
    expect(stderr).to.deep.equal([
      'Configuration error: SECRET: must be set when ROLE=router (every process of the installation must share it; one made in DATA_DIR would be this process’s own)',
    ]);
  });

  it('names each shared setting a worker lacks on a line of its own', async () => {
    const { code, stderr } = await start({ ROLE: 'worker', SECRET: '', BASE_URL: '', PAGE_DOMAIN: '' });
    expect(code).to.equal(2);
    expect(stderr.map((line) => line.split(':').slice(0, 2).join(':'))).to.deep.equal([
      'Configuration error: SECRET',
      'Configuration error: BASE_URL',
      'Configuration error: PAGE_DOMAIN',
    ]);
  });

  it('ends a router (which only reads) the same way on a bucket that does not exist', async () => {
    const { code, stderr, listened } = await start({ ROLE: 'router', S3_BUCKET: 'nope' });
    expect([code, listened, stderr.length]).to.deep.equal([2, false, 1]);
    expect(stderr[0]).to.match(/^Configuration error: S3_BUCKET: there is no bucket "nope"/);
  });

  const databaseCases: [string, (url: URL) => void, number, (url: URL) => string][] = [
    [
      'a server that refuses connections',
      (u) => {
        u.port = '9';
      },
      1,
      () =>
        'Cannot start: DATABASE_URL: nothing answers at 127.0.0.1:9 (connection refused): start PostgreSQL there, or correct the host and port in DATABASE_URL.',
    ],
    [
      'an unknown database',
      (u) => {
        u.pathname = '/nosuchdb';
      },
      2,
      (u) =>
        `Configuration error: DATABASE_URL: the database "nosuchdb" does not exist on 127.0.0.1:${u.port}: create it (createdb nosuchdb), or correct its name in DATABASE_URL.`,
    ],
    [
      'an unknown role',
      (u) => {
        u.username = 'nobody';
      },
      2,
      (u) =>
        `Configuration error: DATABASE_URL: PostgreSQL at 127.0.0.1:${u.port} does not let nobody in (role "nobody" does not exist): create the role (createuser nobody) or allow it in pg_hba.conf, or correct the user in DATABASE_URL.`,
    ],
    [
      'an unknown host',
      (u) => {
        u.hostname = 'db.invalid';
      },
      2,
      () =>
        'Configuration error: DATABASE_URL: the host "db.invalid" is unknown (DNS): correct the host in DATABASE_URL.',
    ],
  ];
  for (const [what, change, status, line] of databaseCases) {
    it(`names DATABASE_URL, the cause and the fix in one line on ${what} (exit ${status})`, async () => {
      const url = new URL(postgres.url);
      change(url);
      const { code, stderr } = await start({ DATABASE_URL: url.toString() });
      expect(stderr).to.deep.equal([line(url)]);
      expect(code).to.equal(status);
    });
  }

  it('names METRICS_PORT when the metrics port is taken', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const { code, stderr } = await start({ METRICS_PORT: String(port) });
      expect(stderr).to.deep.equal([
        `Cannot start: Port 127.0.0.1:${port} is in use by another process: stop it, or set METRICS_PORT to a free port.`,
      ]);
      expect(code).to.equal(1);
    } finally {
      taken.close();
    }
  });

  it('ends with one line on a DATA_DIR that cannot be made, at once, instead of spinning', async () => {
    const { code, stderr } = await start({ DATA_DIR: '/proc/linkpage-data', DATABASE_URL: '' });
    expect(stderr).to.deep.equal([
      "Configuration error: DATA_DIR: /proc/linkpage-data cannot be made (ENOENT at /proc/linkpage-data): create it for the service's user, or set DATA_DIR to a folder this process may write.",
    ]);
    expect(code).to.equal(2);
  });

  it('ends with one line on a DATA_DIR that is a file', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const { code, stderr } = await start({ DATA_DIR: file, DATABASE_URL: '' });
    expect(stderr).to.deep.equal([
      `Configuration error: DATA_DIR: ${file} is a file, not a folder: set DATA_DIR to a folder this process may write.`,
    ]);
    expect(code).to.equal(2);
  });
});
