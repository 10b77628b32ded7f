/**
 * How a command-line tool (`npm run ban`, `npm run republish`) starts: the service's
 * configuration and database, no server and no jobs. What an operator can fix (a bad variable,
 * a data folder another process holds) ends the tool with one line, before anything is opened.
 *
 * A tool never creates the embedded database: run without the service's settings (on a
 * PostgreSQL installation, say, with only DATA_DIR given), it would open a new empty one, find
 * nothing to do and say so as if all were well. ops/build/start.mjs reads the units' environment
 * file first, so a tool run on the service's machine has the service's settings.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Config, loadConfig } from '../../core/config.js';
import { StartupError } from '../../core/errors.js';
import { exitForStartFailure } from './failure.js';
import { type RunningProcess, startProcess } from './process.js';

export async function startTool(): Promise<RunningProcess> {
  try {
    const config = loadConfig();
    refuseOtherUsersFolder(config);
    refuseNewEmbeddedDatabase(config);
    return await startProcess({ config, role: 'tool', ownsProcess: true });
  } catch (err) {
    exitForStartFailure(err, 'run');
  }
}

/**
 * Root running a tool on a data folder the service's user owns (the embedded database, the
 * folder storage) would leave files the service can no longer write.
 */
function refuseOtherUsersFolder(config: Config): void {
  if (process.getuid?.() !== 0 || (config.databaseUrl && config.storage === 's3')) return;
  const owner = statSync(config.dataDir, { throwIfNoEntry: false })?.uid;
  if (owner === undefined || owner === 0) return;
  throw new StartupError(
    `${config.dataDir} belongs to the user with id ${owner}, and files this tool wrote as root would not be writable by it: ` +
      `run the tool as that user (sudo -u <user> node ops/build/start.mjs …).`,
  );
}

function refuseNewEmbeddedDatabase(config: Config): void {
  if (config.databaseUrl) return;
  const folder = path.join(config.dataDir, 'db');
  if (existsSync(folder) && readdirSync(folder).length > 0) return;
  throw new StartupError(
    `there is no database in ${folder}, and a tool does not create one: run it with the service's settings ` +
      '(DATABASE_URL and DATA_DIR as in /etc/linkpage/linkpage.env, which node ops/build/start.mjs reads when it exists; ' +
      'LINKPAGE_ENV_FILE names another file).',
  );
}
