/**
 * `npm run doctor`: checks an installation as its settings describe it, before it goes live
 * and whenever something seems wrong: the database (reachable, every migration applied), its
 * clock against this machine's, storage (a probe object written, read back and deleted), the
 * CDN's purge endpoint, the SMTP server (a connection and its greeting; `--mail-to=<address>`
 * also sends a test message), the page domain and the apex in DNS, and the free disk under
 * DATA_DIR. One line per check, `ok`, `warn` or `FAIL`, with what to do; exit status 1 when a
 * check fails, 2 for a setting that cannot be read. Run through ops/build/start.mjs, it reads the
 * units' environment file (/etc/linkpage/linkpage.env) first.
 */
import { type Config, ConfigError, loadConfig } from '../../core/config.js';
import { routeWarnings } from '../start/logger.js';
import {
  checkCdn,
  checkClock,
  checkDatabase,
  checkDisk,
  checkMail,
  checkNames,
  checkStorage,
  type Finding,
  type Opened,
} from './doctorChecks.js';

const CHECK_WITHIN_MS = 20_000;

const args = process.argv.slice(2);
const sendTo = args.find((a) => a.startsWith('--mail-to='))?.slice('--mail-to='.length);
if (args.some((a) => !a.startsWith('--mail-to=')) || sendTo === '') {
  process.stderr.write('usage: npm run doctor [-- --mail-to=<address>]\n');
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  for (const line of err.message.split('\n')) process.stdout.write(`FAIL  settings  ${line}\n`);
  process.exit(2);
}
routeWarnings(null);

const opened: Opened = { db: null };
const checks: [string, () => Promise<Finding>][] = [
  ['database', () => checkDatabase(config, opened)],
  ['clock', () => checkClock(config, opened)],
  ['storage', () => checkStorage(config)],
  ['cdn', () => checkCdn(config)],
  ['mail', () => checkMail(config, sendTo)],
  ['dns', () => checkNames(config)],
  ['disk', () => checkDisk(config)],
];

process.stdout.write(`Checking the ${config.role} installation of ${config.baseUrl}:\n`);
let failed = 0;
for (const [name, check] of checks) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Finding>((resolve) => {
    timer = setTimeout(
      () => resolve({ verdict: 'fail', line: `no answer within ${CHECK_WITHIN_MS / 1000} s.` }),
      CHECK_WITHIN_MS,
    );
  });
  const finding = await Promise.race([
    check().catch((err: Error): Finding => ({ verdict: 'fail', line: String(err.message).split('\n')[0] })),
    late,
  ]);
  clearTimeout(timer);
  if (finding.verdict === 'fail') failed++;
  const verdict = finding.verdict === 'fail' ? 'FAIL' : finding.verdict;
  process.stdout.write(`${verdict.padEnd(5)} ${name.padEnd(9)} ${finding.line}\n`);
}
await opened.db?.close().catch(() => {});
process.stdout.write(failed > 0 ? `${failed} check(s) failed.\n` : 'Every check passed.\n');
process.exit(failed > 0 ? 1 : 0);
