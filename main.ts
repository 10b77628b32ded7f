/**
 * The one entry for every process role (DESIGN 1): ROLE=all (the default) runs the API, the
 * page router and the background jobs in one process on one port; api, router and worker run
 * their part. Configuration is read here, once.
 */
import http from 'node:http';
import path from 'node:path';
import { pino } from 'pino';
import { createApi } from './api/app.js';
import { type Config, ConfigError, loadConfig, loadSecret } from './core/config.js';
import { buildServices } from './core/services.js';
import { type Jobs, startJobs } from './jobs/agenda.js';
import { createCounters } from './router/counters.js';
import { createHttpHandler } from './router/server.js';
import { openDatabase } from './store/db.js';
import { migrate } from './store/migrate.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function main() {
  const config = readConfig();
  const log = pino({ level: config.logLevel });
  const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  const services = buildServices({ config, db, secret: loadSecret(config), log, now: () => new Date() });
  const role = config.role;

  const counters = createCounters({ db, secret: services.secret, log, now: services.now });
  let server: http.Server | undefined;
  if (role !== 'worker') {
    const api = role === 'router' ? null : createApi(services).callback();
    server = http.createServer(role === 'api' ? api! : createHttpHandler(services, counters, api));
    if (role !== 'api') counters.start();
    server.listen(config.port, () => {
      log.info(
        { role, database: db.engine, storage: config.storage, dataDir: config.dataDir },
        `listening on :${config.port} · API ${config.baseUrl} · pages ${config.pageScheme}//<name>.${config.pageDomain}/`,
      );
    });
  }

  // Background jobs (jobs/agenda.ts): workers run them; the API process only schedules
  // (a page's next visibility change). The outbox is swept once now, then by its job.
  let jobs: Jobs | undefined;
  if (role !== 'router') {
    const work = role === 'all' || role === 'worker';
    if (work) await services.publisher.drain();
    jobs = await startJobs(services, { work });
  }

  const stop = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await jobs?.stop();
    if (server) {
      server.close();
      server.closeAllConnections();
    }
    await counters.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
