/**
 * How a command-line tool (`npm run ban`, `npm run republish`) starts: the service's
 * configuration and database, no server and no jobs. What an operator can fix (a bad variable,
 * a data folder another process holds) ends the tool with one line, before anything is opened.
 */
import { loadConfig } from '../core/config.js';
import { exitForStartFailure } from './failure.js';
import { type RunningProcess, startProcess } from './process.js';

export async function startTool(): Promise<RunningProcess> {
  try {
    return await startProcess({ config: loadConfig(), role: 'tool' });
  } catch (err) {
    exitForStartFailure(err, 'run');
  }
}
