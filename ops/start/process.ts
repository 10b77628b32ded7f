/**
 * How every process starts, whatever runs it (`npm start`, the command-line tools, the tests,
 * the benchmarks): open and migrate the database, build the services, then start the parts of
 * the role. Who hears of a publish is wired here, in sight: the page host (to serve what was just
 * published) and the jobs (to schedule the page's next visibility change).
 */
import type http from 'node:http';
import path from 'node:path';
import type { Logger } from 'pino';
import { type Config, loadSecret } from '../../core/config.js';
import { pageNameFromHost } from '../../core/rules/pageHost.js';
import { isLive } from '../../core/rules/pages.js';
import type { Services } from '../../core/services.js';
import { type Jobs, startJobs } from '../../jobs/agenda.js';
import { commonHeaders, NOTHING_CSP, securityHeaders } from '../../platform/edge/securityHeaders.js';
import { pageMeta } from '../../platform/publishing/pageFiles.js';
import { type Database, openDatabase } from '../../platform/store/db.js';
import { migrate } from '../../platform/store/migrate.js';
import { pageDomainsRepo } from '../../platform/store/pageDomains.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { readSeed } from '../../platform/store/seed.js';
import { type Counters, createCounters } from '../../router/counters.js';
import { createPageHost, type PageHost } from '../../router/pageHost.js';
import { createHttpHandler } from '../../router/server.js';
import { createVisits, type Visits } from '../../router/visits.js';
import { createFront } from '../monitoring/front.js';
import { readinessChecks } from '../monitoring/health.js';
import { createMetrics, type Metrics } from '../monitoring/metrics.js';
import { databaseProblem, prepareDataDir, probeStorage, storageProblem } from './diagnose.js';
import { refusedStart } from './failure.js';
import { createLogger, logExits, redactUrl, routeWarnings } from './logger.js';
import { type BoundPort, bindPort } from './port.js';
import { buildServices } from './services.js';
import { createWebApp } from './web.js';

/** A service role, or `tool`: the services alone, for a command-line tool. */
type ProcessRole = Config['role'] | 'tool';

export interface ProcessOptions {
  config: Config;
  /** What runs; the configured ROLE by default. */
  role?: ProcessRole;
  /** Parts given rather than made from the configuration (tests and benchmarks). */
  overrides?: Partial<Pick<Services, 'db' | 'storage' | 'fetcher' | 'cdn' | 'secret' | 'log' | 'now' | 'random'>>;
  /**
   * Where the HTTP server listens: the configured port on every interface by default, a port
   * main.ts bound before loading the service, or false: no server (the caller serves `handler`).
   */
  listen?: false | { host?: string; port?: number } | BoundPort;
  /** Jobs and the counters' flush timer; off for tests and benchmarks that drive them by hand. */
  background?: boolean;
  /** What the page host learns from each view and Markdown read; router/visits.ts by default. */
  visits?: Visits;
  /**
   * The process is this service's own (main.ts, a tool), not a test's or a benchmark's: its
   * process warnings go to the log (a tool's to stderr), one line each.
   */
  ownsProcess?: boolean;
}

export interface RunningProcess {
  services: Services;
  counters: Counters;
  /** Every request of the role (page hosts, media, the web app, the operations endpoints); null for tools. */
  handler: http.RequestListener | null;
  server: http.Server | null;
  jobs: Jobs | null;
  metrics: Metrics | null;
  /**
   * Stops taking requests and lets those under way finish (up to `drainMs`), stops the jobs,
   * writes the buffered counts and closes a database opened here.
   */
  stop(drainMs?: number): Promise<void>;
}

export async function startProcess(o: ProcessOptions): Promise<RunningProcess> {
  const { config, overrides = {} } = o;
  const role = o.role ?? config.role;
  const background = o.background ?? true;
  const log = overrides.log ?? createLogger(role === 'tool' ? 'silent' : config.logLevel);
  if (o.ownsProcess) routeWarnings(role === 'tool' ? null : log);
  if (o.ownsProcess && role !== 'tool') logExits(log);

  // The ports first: one that is taken ends the start before the database is touched.
  const ports: BoundPort[] = [];
  const isApex = (host: string | undefined) => pageNameFromHost(host, config.pageDomain) === null;
  let running: RunningProcess;
  try {
    if (role !== 'tool' && o.listen !== false) {
      const listen = o.listen ?? {};
      ports.push('serve' in listen ? listen : await bindPort(listen.port ?? config.port, listen.host, isApex));
      if (config.metrics.listen) {
        ports.push(await bindPort(config.metrics.listen.port, config.metrics.listen.host, undefined, 'METRICS_PORT'));
      }
    }
    running = await startParts({ o, role, background, log, ports });
  } catch (err) {
    await Promise.all(ports.map((p) => p.abandon()));
    throw err;
  }
  const [main] = ports;
  if (main) {
    log.info(
      {
        role,
        database: config.databaseUrl ? redactUrl(config.databaseUrl) : `PGlite in ${path.join(config.dataDir, 'db')}`,
        storage: config.storage === 's3' ? `s3://${config.s3.bucket}` : `folder ${path.join(config.dataDir, 'public')}`,
        dataDir: config.dataDir,
        metrics: config.metrics.listen
          ? `:${ports[1].port}/metrics`
          : config.metrics.token
            ? '/metrics with token'
            : 'off',
      },
      `${role} listening on :${main.port} · API ${config.baseUrl} · pages ${config.pageScheme}//<name>.${config.pageDomain}/`,
    );
  }
  return running;
}

/** What startProcess has settled before the database opens. */
interface Start {
  o: ProcessOptions;
  role: ProcessRole;
  background: boolean;
  log: Logger;
  ports: BoundPort[];
}

async function startParts(start: Start): Promise<RunningProcess> {
  const { config, overrides = {} } = start.o;
  const { log } = start;
  const dbFolder = path.join(config.dataDir, 'db');
  // What will write under DATA_DIR: the embedded database, the folder storage, a generated secret.
  if (!config.databaseUrl || config.storage === 'fs' || !config.secret) prepareDataDir(config.dataDir);
  const refused = (err: unknown, folder: string) =>
    (config.databaseUrl && databaseProblem(err, config.databaseUrl)) || refusedStart(err, folder);
  const db =
    overrides.db ??
    (await openDatabase({ url: config.databaseUrl, dataDir: dbFolder, seed: readSeed }).catch((err) => {
      throw refused(err, dbFolder);
    }));
  try {
    if (!overrides.db) {
      const applied = await migrate(db).catch((err) => {
        throw refused(err, config.databaseUrl ? 'The database' : dbFolder);
      });
      if (applied.length > 0) log.info({ applied }, 'database migrated');
    }
    return await startOn(db, start);
  } catch (err) {
    // Whatever failed, a database opened here is closed (and its folder unlocked).
    if (!overrides.db) await db.close().catch(() => {});
    throw err;
  }
}

async function startOn(db: Database, { o, role, background, log, ports }: Start): Promise<RunningProcess> {
  const { config, overrides = {} } = o;
  const services = buildServices({
    config,
    db,
    secret: overrides.secret ?? loadSecret(config),
    log,
    now: overrides.now ?? (() => new Date()),
    random: overrides.random ?? Math.random,
    storage: overrides.storage,
    fetcher: overrides.fetcher,
    cdn: overrides.cdn,
  });
  // Storage is tried before the process says it listens: a bucket that refuses is one line at
  // start, not a page that fails its visitors later. A role that writes writes, reads back and
  // deletes a small object; a router reads.
  if (!overrides.storage && role !== 'tool') {
    await probeStorage(services.storage, role !== 'router').catch((err) => {
      throw storageProblem(err, config) ?? refusedStart(err, path.join(config.dataDir, 'public'));
    });
  }
  const counters = createCounters({ db, secret: services.secret, log, now: services.now });

  let inner: http.RequestListener | null = null;
  if (role === 'all' || role === 'api' || role === 'router') {
    const web = role === 'router' ? null : createWebApp(services).callback();
    if (role === 'api') inner = web;
    else {
      const pages = createPageHost({
        pageDomain: config.pageDomain,
        site: services.config,
        storage: services.storage,
        counters,
        visits: o.visits ?? createVisits(),
        log,
        trustProxy: config.proxyHops,
        now: services.now,
        headers: securityHeaders(services.config),
        cdn: services.cdn.kind,
        routesFromDatabase: async (name) => {
          const row = await pagesRepo(db).findByUsername(name);
          if (!row || !isLive(row)) return null;
          const domain = await pageDomainsRepo(db).servingDomain(row.id, services.now(), config.domains.graceMs);
          return pageMeta({ ...row, domain });
        },
      });
      hearPublishes(services, { pages });
      inner = createHttpHandler(services, pages, web);
      if (background) counters.start();
    }
  }

  let metrics: Metrics | null = null;
  let handler: http.RequestListener | null = null;
  if (role !== 'tool') {
    metrics = createMetrics(services, role === 'api' || role === 'worker' ? null : counters);
    const front = {
      log,
      pageDomain: config.pageDomain,
      metrics,
      ready: readinessChecks(services, role),
      headers: { ...commonHeaders(config), 'content-security-policy': NOTHING_CSP },
    };
    // Custom domains reach the processes that serve pages; elsewhere a host name is only a name.
    const pagesHere = role === 'router' || role === 'all';
    const ownHosts = pagesHere ? [new URL(config.baseUrl).hostname, new URL(config.mediaUrl).hostname] : undefined;
    handler = createFront({ ...front, metricsToken: config.metrics.token, inner, ownHosts });
    ports[0]?.serve(handler);
    ports[1]?.serve(createFront({ ...front, metricsToken: '', inner: null }));
  }

  // The API only schedules jobs (a page's next visibility change); workers run them, after
  // removing what failed writes left in a storage folder and sweeping the publish outbox once.
  let jobs: Jobs | null = null;
  if (background && (role === 'all' || role === 'api' || role === 'worker')) {
    const work = role !== 'api';
    try {
      if (work) {
        const removed = await services.storage.removeLeftovers?.();
        if (removed) log.info({ removed }, 'removed files that failed writes left in storage');
        await services.publisher.drain();
      }
      jobs = await startJobs(services, { work });
    } catch (err) {
      await counters.stop().catch(() => {});
      throw err;
    }
    hearPublishes(services, { jobs });
    metrics?.watchJobs(jobs);
  }

  return {
    services,
    counters,
    handler,
    server: ports[0]?.server ?? null,
    jobs,
    metrics,
    async stop(drainMs = 5_000) {
      await Promise.all(ports.map((p) => drain(p.server, drainMs)));
      await jobs?.stop();
      await counters.stop();
      await services.publisher.settled();
      await services.mailer.settled();
      services.mailer.close();
      if (!overrides.db) await db.close();
    },
  };
}

/** Stops taking connections, closes the idle ones, and gives requests under way `ms` to finish. */
async function drain(server: http.Server, ms: number): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), ms);
  await closed;
  clearTimeout(timer);
}

/**
 * Who hears of a publish: the page host, to serve what was just stored without reading it back,
 * and the jobs, to move the page's visibility job to its next boundary.
 */
export function hearPublishes(s: Services, to: { pages?: PageHost; jobs?: Jobs }): void {
  const { pages, jobs } = to;
  if (pages) s.publisher.onPublished(({ username, objects }) => pages.published(username, objects));
  if (jobs) {
    s.publisher.onPublished(({ username, nextChangeAt }) => {
      jobs
        .scheduleVisibility(username, nextChangeAt)
        .catch((err) => s.log.warn({ err, username }, 'jobs: could not schedule the next visibility change'));
    });
  }
}
