/**
 * How a process that cannot start ends: what an operator can fix (a bad variable, a taken port,
 * a data folder in use) as one line, anything else with its stack; exit status 2 for the
 * configuration, 1 otherwise. Used by main.ts and the command-line tools.
 */
import { ConfigError } from '../core/config.js';
import { StartupError } from '../core/errors.js';

export function exitForStartFailure(err: unknown, verb: 'start' | 'run'): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(2);
  }
  if (err instanceof StartupError) process.stderr.write(`Cannot ${verb}: ${err.message}\n`);
  else process.stderr.write(`Failed to ${verb}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
