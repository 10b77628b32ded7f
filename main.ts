/**
 * The one entry for every process role (DESIGN 1): ROLE=all (the default) runs everything in
 * one process; api, router and worker run their part. Configuration is read here, once.
 */
import http from 'node:http';
import path from 'node:path';
import { pino } from 'pino';
import { createApi } from './api/app.js';
import type { Services } from './api/services.js';
import { ConfigError, loadConfig, loadSecret } from './config.js';
import { openDatabase } from './store/db.js';
import { migrate } from './store/migrate.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });
  if (config.role === 'router' || config.role === 'worker') {
    // Only the API exists so far; the router and the worker come with the publishing and jobs issues.
    process.stderr.write(`ROLE=${config.role} is not available in this version; use ROLE=all or ROLE=api.\n`);
    process.exit(2);
  }
  const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  const services: Services = { config, db, secret: loadSecret(config), log, now: () => new Date() };

  const server = http.createServer(createApi(services).callback());
  server.listen(config.port, () => {
    log.info(
      { role: config.role, database: db.engine, dataDir: config.dataDir },
      `API on ${config.baseUrl} · pages at ${config.pageScheme}//<name>.${config.pageDomain}/ · OpenAPI at ${config.baseUrl}/openapi.json`,
    );
  });

  const stop = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    server.close();
    server.closeAllConnections();
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
