/**
 * The process's logger: JSON lines (pino) for a log collector when stdout is not a terminal,
 * short coloured lines (pino-pretty) when a person watches it. Every line written while a
 * request is handled carries the request's id (platform/edge/requestContext.ts).
 */
import { createRequire } from 'node:module';
import { type Logger, type LoggerOptions, pino } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import { requestLogFields } from '../../platform/edge/requestContext.js';

/** `to`: where JSON lines go (stdout by default; tests read them). */
export function createLogger(level: string, o: { pretty?: boolean; to?: NodeJS.WritableStream } = {}): Logger {
  const options: LoggerOptions = { level, mixin: requestLogFields };
  if (!(o.pretty ?? process.stdout.isTTY === true)) return o.to ? pino(options, o.to) : pino(options);
  // Loaded only for a terminal; synchronous, in this thread: no worker to start or to lose lines in.
  const prettyStream = createRequire(import.meta.url)('pino-pretty') as (o: PrettyOptions) => NodeJS.WritableStream;
  return pino(
    options,
    prettyStream({
      colorize: true,
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      // An access line says these in its message already.
      ignore: 'pid,hostname,method,route,status,ms',
    }),
  );
}

/**
 * Process warnings (Node's, and libraries' through process.emitWarning: the AWS SDK's several
 * lines about Node versions on every process that opens a bucket) as one log line each, at
 * warn, instead of Node's own lines on stderr that a JSON log collector cannot read. Without a
 * log (a command-line tool) one line on stderr.
 */
export function routeWarnings(log: Logger | null): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    const text = warning.message.replace(/\s*\n\s*/g, ' ').trim();
    if (log) log.warn({ warning: warning.name, code: (warning as { code?: string }).code }, text);
    else process.stderr.write(`${warning.name}: ${text}\n`);
  });
}

/**
 * A service process that ends says why, in its log: an uncaught error or an unhandled rejection
 * (logged with its stack, then exit 1, as Node would end it), an event loop with nothing left to
 * do (which no stop asked for), and the exit code of every exit.
 */
export function logExits(log: Logger): void {
  process.on('uncaughtException', (err, origin) => {
    log.fatal(
      { err, origin },
      origin === 'unhandledRejection' ? 'unhandled rejection; exiting' : 'uncaught error; exiting',
    );
    // Once the line is written (a second at most): the exit's own line must come after it.
    log.flush(() => process.exit(1));
    setTimeout(() => process.exit(1), 1000).unref();
  });
  process.on('beforeExit', (code) => log.error({ code }, 'nothing left to run (no server, job or timer); exiting'));
  process.on('exit', (code) => {
    log[code === 0 ? 'info' : 'error']({ code }, `exiting with code ${code}`);
    // The JSON destination writes in the background; nothing runs after this event.
    (log as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym]?.flushSync?.();
  });
}

/** A database URL without its password, for the log. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
