/**
 * The services a command-line tool works with: the service's own configuration (DATABASE_URL,
 * DATA_DIR, SECRET), its database migrated, a silent logger. With the embedded database
 * (PGlite) only one process can open it, so stop the service first.
 */
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig, loadSecret } from '../core/config.js';
import { buildServices, type Services } from '../core/services.js';
import { openDatabase } from '../store/db.js';
import { migrate } from '../store/migrate.js';

export async function openServices(): Promise<Services> {
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
  await migrate(db);
  return buildServices({
    config,
    db,
    secret: loadSecret(config),
    log: pino({ level: 'silent' }),
    now: () => new Date(),
  });
}
