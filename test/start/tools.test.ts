/**
 * The command-line tools on a PostgreSQL + S3 installation, run as docs/deploy.md shows them
 * (`node ops/build/start.mjs ops/scripts/republish.js --all`): they take the service's settings from
 * the units' environment file, and never open a new empty embedded database instead.
 */
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildCreateRequest } from '../helpers/factories.js';
import { freePort } from '../helpers/ports.js';
import { type PostgresServer, startPostgresServer } from '../helpers/postgresServer.js';
import { buildDist, runNode, startNode } from '../helpers/processes.js';
import { s3Bucket } from '../helpers/s3.js';

describe('the command-line tools on a PostgreSQL and S3 installation (ops/build/start.mjs, ops/start/tool.ts)', function () {
  this.timeout(180_000);
  const bucket = s3Bucket();
  let postgres: PostgresServer;
  let dir: string;
  let envFile: string;

  before(async () => {
    buildDist();
    postgres = await startPostgresServer();
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-tools-'));
    envFile = path.join(dir, 'linkpage.env');
    const settings = {
      BASE_URL: 'http://localhost',
      PAGE_DOMAIN: 'pages.localhost',
      DATABASE_URL: postgres.url,
      STORAGE: 's3',
      S3_BUCKET: 'pages',
      S3_ENDPOINT: bucket.endpoint(),
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      SECRET: 'tools-secret-0123456789-0123456789-01',
    };
    await writeFile(
      envFile,
      `${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    // One page, made through the service's API, then the service is stopped.
    const port = await freePort();
    const service = startNode([], { ...settings, PORT: String(port), DATA_DIR: path.join(dir, 'service') });
    try {
      while (!service.stdout.join('').includes('listening')) {
        if (service.child.exitCode !== null) throw new Error(service.stderr.join(''));
        await new Promise((resolve) => service.child.stdout!.once('data', resolve));
      }
      const res = await fetch(`http://127.0.0.1:${port}/api/agent/pages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', host: 'localhost' },
        body: JSON.stringify(buildCreateRequest()),
      });
      expect(res.status).to.equal(201);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });
  after(async () => {
    await postgres?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it("republishes the installation's pages with only DATA_DIR given: the rest comes from the environment file", async () => {
    const data = path.join(dir, 'data-with-file');
    const { code, stdout, stderr } = await runNode(['ops/scripts/republish.js', '--all'], {
      LINKPAGE_ENV_FILE: envFile,
      DATA_DIR: data,
    });
    expect(stderr[0]).to.equal(`Settings from ${envFile} (variables set in this shell take precedence).`);
    expect(stdout).to.have.length(1);
    expect(stdout[0]).to.match(/^Published 1 of 1 pages again in [\d.]+ s\.$/);
    expect(code).to.equal(0);
    expect(existsSync(path.join(data, 'db')), 'no embedded database made').to.equal(false);
  });

  it('refuses to run on an embedded database it would have to create, and leaves the folder as it was', async () => {
    const data = await mkdtemp(path.join(dir, 'data-'));
    const { code, stdout, stderr } = await runNode(['ops/scripts/republish.js', '--all'], { DATA_DIR: data });
    expect(stdout).to.deep.equal([]);
    expect(stderr).to.have.length(1);
    expect(stderr[0]).to.match(
      new RegExp(
        `^Cannot run: there is no database in ${data}/db, and a tool does not create one: run it with the service's settings`,
      ),
    );
    expect(code).to.equal(1);
    expect(readdirSync(data), 'no db/ and no secret').to.deep.equal([]);
  });

  it("refuses, run as root, a data folder the service's user owns (its files would become root's)", async () => {
    // Run as root, as the tests here are (the tmpfs tests need it too).
    const data = await mkdtemp(path.join(dir, 'owned-'));
    await chown(data, 65534, 65534);
    const { code, stderr } = await runNode(['ops/scripts/republish.js'], { DATA_DIR: data });
    expect(stderr).to.deep.equal([
      `Cannot run: ${data} belongs to the user with id 65534, and files this tool wrote as root would not be writable by it: run the tool as that user (sudo -u <user> node ops/build/start.mjs …).`,
    ]);
    expect(code).to.equal(1);
    expect(readdirSync(data)).to.deep.equal([]);
  });
});
