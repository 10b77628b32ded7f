/**
 * `npm run doctor` (ops/scripts/doctor.ts) on a real installation: a PostgreSQL of the test's own
 * (migrated), an s3rver bucket and an SMTP server, run as an operator runs it
 * (`node ops/build/start.mjs ops/scripts/doctor.js`, settings from an environment file).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase } from '../../platform/store/db.js';
import { migrate } from '../../platform/store/migrate.js';
import { mailboxPerTest } from '../helpers/mailbox.js';
import { type PostgresServer, startPostgresServer } from '../helpers/postgresServer.js';
import { buildDist, runNode } from '../helpers/processes.js';
import { s3Bucket } from '../helpers/s3.js';

describe('npm run doctor (ops/scripts/doctor.ts)', function () {
  this.timeout(180_000);
  const bucket = s3Bucket();
  // Each test's own: what a test finds in the mailbox is what its run of the doctor sent.
  const mailbox = mailboxPerTest();
  let postgres: PostgresServer;
  let dir: string;
  let envFile: string;

  before(async () => {
    buildDist();
    postgres = await startPostgresServer();
    const db = await openDatabase({ url: postgres.url });
    await migrate(db);
    await db.close();
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-doctor-'));
    envFile = path.join(dir, 'linkpage.env');
  });
  beforeEach(async () => {
    await writeFile(
      envFile,
      [
        'BASE_URL=http://localhost',
        'PAGE_DOMAIN=pages.invalid',
        `DATA_DIR=${dir}`,
        `DATABASE_URL=${postgres.url}`,
        'STORAGE=s3',
        'S3_BUCKET=pages',
        `S3_ENDPOINT=${bucket.endpoint()}`,
        'S3_FORCE_PATH_STYLE=1',
        'AWS_ACCESS_KEY_ID=S3RVER',
        'AWS_SECRET_ACCESS_KEY=S3RVER',
        `SMTP_URL=${mailbox().url}`,
        'CDN=varnish',
        // Nothing listens there: the purge check fails.
        'VARNISH_URLS=http://127.0.0.1:9',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    await postgres?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** The doctor's verdict per check, and its exit code. */
  async function doctor(env: Record<string, string> = {}, args: string[] = []) {
    const { code, stdout } = await runNode(['ops/scripts/doctor.js', ...args], { LINKPAGE_ENV_FILE: envFile, ...env });
    const checks = Object.fromEntries(
      stdout.flatMap((l) => {
        const m = /^(ok|warn|FAIL) +(\w+) +(.*)$/.exec(l);
        return m ? [[m[2], { verdict: m[1], line: m[3] }]] : [];
      }),
    );
    return { code, checks };
  }

  it("reads the units' environment file and prints one line per check, failing what refuses, exit 1", async () => {
    const { code, checks } = await doctor();
    expect(Object.keys(checks)).to.deep.equal(['database', 'clock', 'storage', 'cdn', 'mail', 'dns', 'disk']);
    expect(checks.database.verdict, checks.database.line).to.equal('ok');
    expect(checks.database.line).to.match(/^PostgreSQL at 127\.0\.0\.1:\d+\/postgres answers; all \d+ migrations/);
    expect(checks.clock.verdict, checks.clock.line).to.equal('ok');
    expect(checks.storage.verdict, checks.storage.line).to.equal('ok');
    expect(checks.storage.line).to.match(/^bucket "pages" at .*: a probe object written, read back and deleted/);
    expect(checks.mail.verdict, checks.mail.line).to.equal('ok');
    expect(checks.disk.verdict, checks.disk.line).to.be.oneOf(['ok', 'warn']);
    expect(checks.cdn).to.deep.include({ verdict: 'FAIL' });
    expect(checks.cdn.line).to.match(
      /^CDN=varnish: VARNISH_URLS \(http:\/\/127\.0\.0\.1:9\) refused a purge .*purgers ACL\.$/,
    );
    expect(checks.dns).to.deep.include({ verdict: 'FAIL' });
    expect(checks.dns.line).to.match(
      /^PAGE_DOMAIN: doctor-[0-9a-f]+\.pages\.invalid does not resolve .*wildcard DNS record \*\.pages\.invalid/,
    );
    expect(code).to.equal(1);
    expect(mailbox().received, 'no message sent unless asked').to.have.length(0);
  });

  it('fails the database check, saying what to do, on a database without the migrations', async () => {
    const url = new URL(postgres.url);
    url.pathname = '/template1';
    const { code, checks } = await doctor({ DATABASE_URL: url.toString() });
    expect(checks.database).to.deep.equal({
      verdict: 'FAIL',
      line: `PostgreSQL at 127.0.0.1:${url.port}/template1 answers but holds no tables yet: start the service once (it applies the migrations).`,
    });
    expect(code).to.equal(1);
  });

  it('sends a test message when asked, and passes every check on a good installation (exit 0)', async () => {
    const { code, checks } = await doctor({ CDN: 'none', PAGE_DOMAIN: 'localhost', BASE_URL: 'http://localhost' }, [
      '--mail-to=ops@example.com',
    ]);
    expect(checks.mail.line).to.match(/took a test message for ops@example\.com/);
    expect((await mailbox().next('ops@example.com')).subject).to.equal('linkpage doctor: a test message');
    expect(Object.values(checks).filter((c) => c.verdict === 'FAIL')).to.deep.equal([]);
    expect(code).to.equal(0);
  });
});
