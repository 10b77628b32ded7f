/**
 * How a process that cannot start ends: what an operator can fix (a bad variable, a taken port,
 * a data folder in use or refusing writes) as one line, anything else with its stack; exit
 * status 2 for the configuration, 1 otherwise. Used by main.ts and the command-line tools.
 */
import { inspect } from 'node:util';
import { ConfigError } from '../../core/config.js';
import { StartupError } from '../../core/errors.js';
import { writeRefusal } from '../../platform/store/outage.js';

export function exitForStartFailure(err: unknown, verb: 'start' | 'run'): never {
  if (err instanceof ConfigError) {
    // One line for each setting at fault.
    process.stderr.write(
      err.message
        .split('\n')
        .map((line) => `Configuration error: ${line}\n`)
        .join(''),
    );
    process.exit(2);
  }
  if (err instanceof StartupError) process.stderr.write(`Cannot ${verb}: ${err.message}\n`);
  else process.stderr.write(`Failed to ${verb}: ${describe(err)}\n`);
  process.exit(1);
}

/**
 * A start that failed writing to `folder` (the data folder, the embedded database's, storage's)
 * because it refuses writes, as the one line an operator needs; any other failure as it was.
 */
export function refusedStart(err: unknown, folder: string): unknown {
  const refusal = writeRefusal(err);
  if (!refusal) return err;
  return new StartupError(
    `${refusal.path ?? folder} refuses writes: ${refusal.reason} (${refusal.code}). ` +
      'Make room there or give this process write access, or set DATA_DIR to another folder.',
  );
}

/** An Error with its stack; anything else thrown (an object, a string) as it reads in a debugger, never "[object Object]". */
function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? err.message;
  if (typeof err === 'string') return err;
  return inspect(err, { depth: 3, breakLength: Number.POSITIVE_INFINITY });
}
