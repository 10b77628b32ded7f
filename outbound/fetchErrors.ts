/** How a failed fetch is told to the caller. */
import { AppError } from '../core/errors.js';

/** A failed request as the error the caller answers: refused addresses `blocked`, the rest `unreachable`. */
export function asFetchError(
  err: unknown,
  url: URL,
  field: string,
  limits: { timeoutMs: number; firstByteTimeoutMs?: number },
): AppError {
  if (err instanceof AppError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EBLOCKED') return new AppError('blocked', { field, detail: url.hostname });
  if (code === 'EDEADLINE') {
    return new AppError('unreachable', {
      field,
      detail: url.hostname,
      hint: `The URL was not fetched in full within ${limits.timeoutMs / 1000} s (redirects included).`,
    });
  }
  if (code === 'EFIRSTBYTE') {
    return new AppError('unreachable', {
      field,
      detail: url.hostname,
      hint: `The server sent no answer within ${(limits.firstByteTimeoutMs ?? 0) / 1000} s.`,
    });
  }
  return new AppError('unreachable', {
    field,
    detail: url.hostname,
    hint: `The URL could not be fetched (${(err as Error).message}).`,
  });
}

export function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
