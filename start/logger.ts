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
