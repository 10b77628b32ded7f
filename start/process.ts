/**
 * How every process starts, whatever runs it (`npm start`, the command-line tools, the tests,
 * the benchmarks): open and migrate the database, build the services, then start the parts of
 * the role. Who hears of a publish is wired here, in sight: the page host (to serve what was just
 * published) and the jobs (to schedule the page's next visibility change).
 */
import http from 'node:http';
import path from 'node:path';
import { pino } from 'pino';
import { type Config, loadSecret } from '../core/config.js';
import { buildServices, type Services } from '../core/services.js';
import { type Jobs, startJobs } from '../jobs/agenda.js';
import { type Counters, createCounters } from '../router/counters.js';
import { createPageHost, type PageHost } from '../router/pageHost.js';
import { createHttpHandler } from '../router/server.js';
import { openDatabase } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { createWebApp } from './web.js';

/** A service role, or `tool`: the services alone, for a command-line tool. */
type ProcessRole = Config['role'] | 'tool';

export interface ProcessOptions {
  config: Config;
  /** What runs; the configured ROLE by default. */
  role?: ProcessRole;
  /** Parts given rather than made from the configuration (tests and benchmarks). */
  overrides?: Partial<Pick<Services, 'db' | 'storage' | 'fetcher' | 'secret' | 'log' | 'now'>>;
  /** Where the HTTP server listens: the configured port on every interface by default; false: no server. */
  listen?: false | { host?: string; port?: number };
  /** Jobs and the counters' flush timer; off for tests and benchmarks that drive them by hand. */
  background?: boolean;
}

export interface RunningProcess {
  services: Services;
  counters: Counters;
  /** Page hosts, media and the web app on one handler (absent for the worker and tools). */
  handler: http.RequestListener | null;
  server: http.Server | null;
  jobs: Jobs | null;
  /** Stops what was started, flushes the counters and closes a database opened here. */
  stop(): Promise<void>;
}

export async function startProcess(o: ProcessOptions): Promise<RunningProcess> {
  const { config, overrides = {} } = o;
  const role = o.role ?? config.role;
  const background = o.background ?? true;
  const log = overrides.log ?? pino({ level: role === 'tool' ? 'silent' : config.logLevel });

  const db =
    overrides.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') }));
  if (!overrides.db) {
    const applied = await migrate(db);
    if (applied.length > 0) log.info({ applied }, 'database migrated');
  }
  const services = buildServices({
    config,
    db,
    secret: overrides.secret ?? loadSecret(config),
    log,
    now: overrides.now ?? (() => new Date()),
    storage: overrides.storage,
    fetcher: overrides.fetcher,
  });
  const counters = createCounters({ db, secret: services.secret, log, now: services.now });

  let handler: http.RequestListener | null = null;
  let server: http.Server | null = null;
  if (role === 'all' || role === 'api' || role === 'router') {
    const web = role === 'router' ? null : createWebApp(services).callback();
    if (role === 'api') handler = web;
    else {
      const pages = createPageHost({
        pageDomain: config.pageDomain,
        storage: services.storage,
        counters,
        log,
        trustProxy: config.trustProxy,
        now: services.now,
      });
      hearPublishes(services, { pages });
      handler = createHttpHandler(services, pages, web);
      if (background) counters.start();
    }
    if (o.listen !== false)
      server = await listen(http.createServer(handler!), o.listen?.port ?? config.port, o.listen?.host);
  }

  // The API only schedules jobs (a page's next visibility change); workers run them, after
  // sweeping the publish outbox once.
  let jobs: Jobs | null = null;
  if (background && (role === 'all' || role === 'api' || role === 'worker')) {
    const work = role !== 'api';
    if (work) await services.publisher.drain();
    jobs = await startJobs(services, { work });
    hearPublishes(services, { jobs });
  }

  if (server) {
    log.info(
      { role, database: db.engine, storage: config.storage, dataDir: config.dataDir },
      `listening on :${(server.address() as { port: number }).port} · API ${config.baseUrl} · pages ${config.pageScheme}//<name>.${config.pageDomain}/`,
    );
  }

  return {
    services,
    counters,
    handler,
    server,
    jobs,
    async stop() {
      await jobs?.stop();
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await counters.stop();
      if (!overrides.db) await db.close();
    },
  };
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

function listen(server: http.Server, port: number, host?: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
