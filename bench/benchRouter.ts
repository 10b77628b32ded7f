/**
 * The real router the benches load: started in-process with counting on, over a fresh PGlite
 * and a folder under `dataDir` (pages under `dataDir/public`), with TRUST_PROXY on so a load can
 * give each view its own address in X-Forwarded-For. The caller adds the pages it serves.
 */
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../core/config.js';
import { startProcess } from '../ops/start/process.js';
import { type Database, openDatabase } from '../platform/store/db.js';
import { migrate } from '../platform/store/migrate.js';
import { fsStorage, type ObjectStorage } from '../platform/store/objects.js';
import type { Visits } from '../router/visits.js';
import { buildSeed } from './seed.js';

export async function startBenchRouter(
  dataDir: string,
  visits?: Visits,
): Promise<{ running: Awaited<ReturnType<typeof startProcess>>; db: Database; storage: ObjectStorage }> {
  const db = await openDatabase({ seed: buildSeed });
  await migrate(db);
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, PAGE_DOMAIN: 'pages.test', TRUST_PROXY: '1' });
  const storage = fsStorage(path.join(dataDir, 'public'));
  const running = await startProcess({
    config,
    role: 'router',
    listen: false,
    visits,
    overrides: { db, storage, secret: 'bench-secret-0123456789-0123456789', log: pino({ level: 'silent' }) },
  });
  return { running, db, storage };
}
