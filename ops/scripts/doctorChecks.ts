/**
 * The checks of `npm run doctor`, each on the installation as its settings describe it: what it
 * found, and when something is wrong, what to do. None changes anything the service keeps: the
 * storage probe deletes what it wrote, the CDN purge names a key no page has, and no e-mail is
 * sent unless asked.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { existsSync, readdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../core/config.js';
import { StartupError } from '../../core/errors.js';
import { createCdn } from '../../platform/cdn/index.js';
import { type Database, openDatabase, sqlState } from '../../platform/store/db.js';
import { listMigrations } from '../../platform/store/migrate.js';
import { storageFromConfig } from '../../platform/store/objects.js';
import { databaseProblem, probeStorage, storagePlace, storageProblem } from '../start/diagnose.js';

export type Verdict = 'ok' | 'warn' | 'fail';
export interface Finding {
  verdict: Verdict;
  line: string;
}

const ok = (line: string): Finding => ({ verdict: 'ok', line });
const warn = (line: string): Finding => ({ verdict: 'warn', line });
const fail = (line: string): Finding => ({ verdict: 'fail', line });

const GB = 1024 ** 3;

/** The database, once opened by the database check, for the clock check. */
export interface Opened {
  db: Database | null;
}

export async function checkDatabase(config: Config, opened: Opened): Promise<Finding> {
  let where: string;
  if (config.databaseUrl) {
    const u = new URL(config.databaseUrl);
    where = `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } else {
    const folder = path.join(config.dataDir, 'db');
    where = `the embedded database ${folder}`;
    if (!existsSync(folder) || readdirSync(folder).length === 0) {
      return fail(
        `no database in ${folder}: start the service once (it creates it), or set DATA_DIR or DATABASE_URL as the service has them.`,
      );
    }
  }
  try {
    opened.db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
  } catch (err) {
    if (err instanceof StartupError)
      return warn(
        `${err.message.replace(/: stop that process.*$/, '')}: the service holds it; ask its /readyz instead, or stop it to check here.`,
      );
    const problem = config.databaseUrl ? databaseProblem(err, config.databaseUrl) : null;
    return fail(problem ? problem.message : `${where}: ${String((err as Error).message).split('\n')[0]}`);
  }
  const known = listMigrations().map((m) => m.version);
  let applied: Set<string>;
  try {
    applied = new Set(
      (await opened.db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
  } catch (err) {
    if (sqlState(err).code === '42P01')
      return fail(`${where} answers but holds no tables yet: start the service once (it applies the migrations).`);
    throw err;
  }
  const missing = known.filter((v) => !applied.has(v));
  if (missing.length > 0) {
    return fail(
      `${where} answers, but ${missing.length} of this release's ${known.length} migrations are not applied (${missing.join(', ')}): start one process of this release, which applies them.`,
    );
  }
  return ok(`${where} answers; all ${known.length} migrations of this release are applied.`);
}

export async function checkClock(config: Config, opened: Opened): Promise<Finding> {
  if (!opened.db) return warn('not checked: the database could not be opened.');
  if (!config.databaseUrl) return ok("the embedded database runs on this machine's clock.");
  const before = Date.now();
  const [row] = await opened.db.query<{ ms: string | number }>(
    'SELECT extract(epoch from clock_timestamp()) * 1000 AS ms',
  );
  const after = Date.now();
  const skew = (Number(row.ms) - (before + after) / 2) / 1000;
  const said = `this machine's clock is ${Math.abs(skew).toFixed(1)} s ${skew > 0 ? 'behind' : 'ahead of'} the database's`;
  if (Math.abs(skew) > 30)
    return fail(
      `${said}: run time synchronisation (systemd-timesyncd or chrony) on both; schedules, rate limits and sessions use both clocks.`,
    );
  if (Math.abs(skew) > 2) return warn(`${said}: turn on time synchronisation (systemd-timesyncd or chrony).`);
  return ok(`${said} (within 2 s).`);
}

export async function checkStorage(config: Config): Promise<Finding> {
  if (config.storage === 'fs' && !existsSync(path.join(config.dataDir, 'public'))) {
    return fail(
      `there is no ${storagePlace(config)} yet: start the service once (it makes it), or set DATA_DIR as the service has it.`,
    );
  }
  const started = performance.now();
  try {
    await probeStorage(storageFromConfig(config), true);
  } catch (err) {
    const problem = storageProblem(err, config);
    return fail(
      problem
        ? problem.message
        : `${storagePlace(config)}: ${String((err as Error).message).split('\n')[0]}: give the service's user write access there, or set DATA_DIR.`,
    );
  }
  return ok(
    `${storagePlace(config)}: a probe object written, read back and deleted in ${Math.round(performance.now() - started)} ms.`,
  );
}

export async function checkCdn(config: Config): Promise<Finding> {
  const { cdn } = config;
  if (cdn.kind === 'none') return ok('CDN=none: nothing to purge (visitors reach the routers directly).');
  const targets = cdn.kind === 'varnish' ? `VARNISH_URLS (${cdn.varnishUrls.join(', ')})` : `the ${cdn.kind} API`;
  try {
    // A key no page has: the CDN takes the purge and drops nothing.
    await createCdn(config).purge([`doctor-${randomBytes(6).toString('hex')}`]);
  } catch (err) {
    const fix =
      cdn.kind === 'varnish'
        ? "check VARNISH_URLS, and that this machine's address is in the VCL's purgers ACL"
        : `check the ${cdn.kind.toUpperCase()} settings and the token's purge permission`;
    return fail(
      `CDN=${cdn.kind}: ${targets} refused a purge (${String((err as Error).message).split('\n')[0]}): ${fix}.`,
    );
  }
  return ok(`CDN=${cdn.kind}: ${targets} took a purge of a key no page has.`);
}

export async function checkMail(config: Config, sendTo: string | undefined): Promise<Finding> {
  const url = config.mail.smtpUrl;
  if (!url) {
    return warn(
      `SMTP_URL is unset: password resets and confirmations are written under ${path.join(config.dataDir, 'mail')}, none is sent; set SMTP_URL to send them.`,
    );
  }
  const u = new URL(url);
  const server = `the SMTP server ${u.hostname}:${u.port || (u.protocol === 'smtps:' ? 465 : 587)}`;
  const transport = nodemailer.createTransport(url);
  try {
    await transport.verify();
    if (sendTo) {
      await transport.sendMail({
        from: config.mail.from,
        to: sendTo,
        subject: 'linkpage doctor: a test message',
        text: `Sent by npm run doctor from ${config.baseUrl}.\n`,
      });
      return ok(`${server} took a test message for ${sendTo} from ${config.mail.from}.`);
    }
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // The URL holds a password: the server's name only, never the URL.
    return fail(
      `SMTP_URL: ${server} refused (${e.code ?? 'error'}: ${String(e.message).split('\n')[0]}): check the host, port and credentials in SMTP_URL.`,
    );
  } finally {
    transport.close();
  }
  return ok(`${server} answers and accepts the configured login (no message sent; --mail-to=<address> sends one).`);
}

export async function checkNames(config: Config): Promise<Finding> {
  const pageHost = config.pageDomain.replace(/:\d+$/, '');
  if (pageHost === 'localhost' || pageHost.endsWith('.localhost')) {
    return warn(
      `PAGE_DOMAIN is ${config.pageDomain}: pages open only in a browser on this machine; set PAGE_DOMAIN (and BASE_URL) for a public site.`,
    );
  }
  const page = `doctor-${randomBytes(3).toString('hex')}.${pageHost}`;
  const apex = new URL(config.baseUrl).hostname;
  const found: string[] = [];
  for (const [name, variable, fix] of [
    [page, 'PAGE_DOMAIN', `add a wildcard DNS record *.${pageHost} pointing at the proxy`],
    [apex, 'BASE_URL', `add a DNS record for ${apex}`],
  ]) {
    try {
      found.push(`${name} → ${(await lookup(name)).address}`);
    } catch (err) {
      return fail(`${variable}: ${name} does not resolve (${(err as { code?: string }).code ?? 'error'}): ${fix}.`);
    }
  }
  return ok(`${found.join(', ')}.`);
}

export async function checkDisk(config: Config): Promise<Finding> {
  let at = config.dataDir;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const s = await statfs(at);
  const free = s.bavail * s.bsize;
  const share = free / (s.blocks * s.bsize);
  const said = `${at}: ${(free / GB).toFixed(1)} GB free of ${((s.blocks * s.bsize) / GB).toFixed(1)} GB (${Math.round(share * 100)} %)`;
  const needed = !config.databaseUrl || config.storage === 'fs';
  if (needed && free < 0.25 * GB)
    return fail(`${said}: the database or the pages will soon be refused writes; make room or move DATA_DIR.`);
  if (needed && (free < 2 * GB || share < 0.1)) return warn(`${said}: make room or move DATA_DIR before it fills.`);
  return ok(needed ? `${said}.` : `${said} (with PostgreSQL and S3 little is written there).`);
}
