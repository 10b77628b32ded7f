/**
 * `npm start`: one process for the configured role. ROLE=all (the default) runs the API, the
 * page router and the background jobs on one port; api, router and worker run their part
 * (the worker's port serves only /healthz, /readyz and /metrics).
 *
 * The port is bound before the service's modules load, so a taken port is reported at once;
 * configuration is read here, once. SIGTERM and SIGINT stop the service: requests under way
 * finish, the jobs stop, buffered counts are written and the database is closed, within
 * STOP_WITHIN_MS, after which the process exits regardless.
 */
import { type Config, loadConfig } from './core/config.js';
import { pageNameFromHost } from './core/rules/pageHost.js';
import { exitForStartFailure } from './ops/start/failure.js';
import { bindPort } from './ops/start/port.js';
import type { RunningProcess } from './ops/start/process.js';

const STOP_WITHIN_MS = 10_000;
/**
 * A signal that comes while the process starts waits for the start (opening, and on a first
 * run creating, the database), at most this long: a start takes seconds, more on a busy machine.
 */
const START_WITHIN_MS = 30_000;

function fail(err: unknown): never {
  exitForStartFailure(err, 'start');
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(err);
  }
  // router/pageHost.ts loads in a few ms: the page host rule, for /healthz and /readyz while starting.
  const isApex = (host: string | undefined) => pageNameFromHost(host, config.pageDomain) === null;
  const port = await bindPort(config.port, undefined, isApex).catch(fail);

  // One listener for the whole life of the process: removing a signal's last listener drops
  // a signal that arrived but was not yet dispatched (the start's last steps can run without a
  // turn of the event loop). A signal while starting stops the service as soon as it is up:
  // cutting PGlite off while it creates or migrates a data folder could break the folder.
  let running: RunningProcess | null = null;
  let requested: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (requested) process.exit(1); // the second one: at once
    requested = signal;
    if (running) void stop(running, signal);
    else deadline(START_WITHIN_MS); // a start that hangs (a database that does not answer) ends anyway
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);

  const { startProcess } = await import('./ops/start/process.js');
  running = await startProcess({ config, listen: port, ownsProcess: true }).catch(fail);
  if (requested) await stop(running, requested);
}

/** Exits `ms` after the first signal, whatever is still under way. */
let deadlineSet = false;
function deadline(ms: number, log?: RunningProcess['services']['log']) {
  if (deadlineSet) return;
  deadlineSet = true;
  setTimeout(() => {
    const line = `still stopping after ${ms / 1000} s; exiting now`;
    if (log) log.error(line);
    else process.stderr.write(`${line}\n`);
    process.exit(1);
  }, ms).unref();
}

async function stop(running: RunningProcess, signal: NodeJS.Signals) {
  const { log } = running.services;
  log.info({ signal }, 'stopping (send it again to exit at once)');
  deadline(STOP_WITHIN_MS, log);
  try {
    await running.stop(STOP_WITHIN_MS / 2);
  } catch (err) {
    log.error({ err }, 'could not stop cleanly');
    process.exit(1);
  }
  log.info('stopped');
  process.exit(0);
}

void main();
