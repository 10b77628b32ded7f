/**
 * The process's logger: JSON lines (pino) for a log collector when stdout is not a terminal,
 * short coloured lines (pino-pretty) when a person watches it. Every line written while a
 * request is handled carries the request's id (edge/requestContext.ts).
 */
import { createRequire } from 'node:module';
import { type Logger, type LoggerOptions, pino } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import { requestLogFields } from '../edge/requestContext.js';

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
