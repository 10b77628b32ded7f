/**
 * `npm run doctor` against the topology's installation: one router, one API and one worker on
 * a PostgreSQL and an s3rver bucket behind Varnish, checked with the settings the processes
 * share, as an operator would before going live.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Cluster, PAGE_DOMAIN, startCluster } from './cluster.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('npm run doctor on the topology (ops/scripts/doctor.ts)', function () {
  this.timeout(240_000);
  let c: Cluster;
  before(async function () {
    this.timeout(120_000);
    c = await startCluster({ router: 1, api: 1, worker: 1 });
  });
  after(async () => {
    await c?.close();
  });

  it('passes every check the installation can pass, and fails DNS: the test page domain has no record', async () => {
    const child = spawn(process.execPath, ['ops/build/start.mjs', 'ops/scripts/doctor.js'], {
      cwd: ROOT,
      // With PostgreSQL, S3 and SECRET nothing is kept in DATA_DIR; the disk check looks where it would be.
      env: {
        ...c.env,
        ROLE: 'worker',
        DATA_DIR: path.join(tmpdir(), 'linkpage-doctor-topology'),
        LINKPAGE_ENV_FILE: '',
      },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    const verdicts = Object.fromEntries(
      out.split('\n').flatMap((l) => {
        const m = /^(ok|warn|FAIL) +(\w+) /.exec(l);
        return m ? [[m[2], m[1]]] : [];
      }),
    );
    const { disk, ...others } = verdicts;
    expect(others, out).to.deep.equal({
      database: 'ok',
      clock: 'ok',
      storage: 'ok',
      cdn: 'ok',
      mail: 'warn',
      dns: 'FAIL',
    });
    expect(disk, out).to.be.oneOf(['ok', 'warn']);
    expect(out).to.match(
      new RegExp(`FAIL  dns +PAGE_DOMAIN: doctor-[0-9a-f]+\\.${PAGE_DOMAIN.replace('.', '\\.')} does not resolve`),
    );
    expect(code).to.equal(1);
  });
});
