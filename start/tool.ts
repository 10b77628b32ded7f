/**
 * How a command-line tool (`npm run ban`, `npm run republish`) starts: the service's
 * configuration and database, no server and no jobs. What an operator can fix (a bad variable,
 * a data folder another process holds) ends the tool with one line, before anything is opened.
 *
 * A tool never creates the embedded database: run without the service's settings (on a
 * PostgreSQL installation, say, with only DATA_DIR given), it would open a new empty one, find
 * nothing to do and say so as if all were well. build/start.mjs reads the units' environment
 * file first, so a tool run on the service's machine has the service's settings.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type Config, loadConfig } from '../core/config.js';
import { StartupError } from '../core/errors.js';
import { exitForStartFailure } from './failure.js';
import { type RunningProcess, startProcess } from './process.js';

export async function startTool(): Promise<RunningProcess> {
  try {
    const config = loadConfig();
    refuseNewEmbeddedDatabase(config);
    return await startProcess({ config, role: 'tool', ownsProcess: true });
  } catch (err) {
    exitForStartFailure(err, 'run');
  }
}

function refuseNewEmbeddedDatabase(config: Config): void {
  if (config.databaseUrl) return;
  const folder = path.join(config.dataDir, 'db');
  if (existsSync(folder) && readdirSync(folder).length > 0) return;
  throw new StartupError(
    `there is no database in ${folder}, and a tool does not create one: run it with the service's settings ` +
      '(DATABASE_URL and DATA_DIR as in /etc/linkpage/linkpage.env, which node build/start.mjs reads when it exists; ' +
      'LINKPAGE_ENV_FILE names another file).',
  );
}
