/** How a failed fetch is told to the caller: always by a fixed English hint, never the system's own error text. */
import { AppError } from '../../core/errors.js';

/**
 * Failures whose difference would tell a tenant about the network behind the service: a name
 * that does not resolve, and one that resolves to a private address, are both `name` (what
 * webhook deliveries and link checks record reads the same for both, so no internal host name
 * can be told from a missing one); a refused connection is `refused`.
 */
export type FailureCause = 'name' | 'refused';

export const FAILURE_TEXT: Record<FailureCause, string> = {
  name: 'The host name does not resolve to a public address.',
  refused: 'The host refused the connection.',
};

const causes = new WeakMap<AppError, FailureCause>();

/** The cause of a fetch's failure, when it is one of FailureCause. */
export function failureCause(err: AppError): FailureCause | null {
  return causes.get(err) ?? null;
}

function withCause(err: AppError, cause: FailureCause): AppError {
  causes.set(err, cause);
  return err;
}

/** Errors of a name lookup (getaddrinfo and the resolver's own). */
const NAME_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'ENONAME']);

/**
 * A failed request as the error the caller answers: a name resolving to a refused address, and a
 * host refusing the connection, are `blocked`; the rest `unreachable`.
 */
export function asFetchError(
  err: unknown,
  url: URL,
  field: string,
  limits: { timeoutMs: number; firstByteTimeoutMs?: number },
): AppError {
  if (err instanceof AppError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const detail = url.hostname;
  if (code === 'EBLOCKED') return withCause(new AppError('blocked', { field, detail }), 'name');
  if (code === 'ECONNREFUSED') {
    return withCause(new AppError('blocked', { field, detail, hint: FAILURE_TEXT.refused }), 'refused');
  }
  if (NAME_ERRORS.has(code)) {
    return withCause(
      new AppError('unreachable', { field, detail, hint: 'The host name could not be resolved.' }),
      'name',
    );
  }
  if (code === 'EDEADLINE') {
    return new AppError('unreachable', {
      field,
      detail,
      hint: `The URL was not fetched in full within ${limits.timeoutMs / 1000} s (redirects included).`,
    });
  }
  if (code === 'EFIRSTBYTE') {
    return new AppError('unreachable', {
      field,
      detail,
      hint: `The server sent no answer within ${(limits.firstByteTimeoutMs ?? 0) / 1000} s.`,
    });
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new AppError('unreachable', { field, detail, hint: 'The server closed the connection before it answered.' });
  }
  return new AppError('unreachable', { field, detail });
}

/** Statuses by which a server refuses the request rather than failing it: `blocked`. */
const REFUSING_STATUSES = new Set([401, 403, 451]);

/** A final answer the caller did not take (not 2xx, and not a 4xx it asked for) as its error. */
export function asStatusError(status: number, url: URL, field: string): AppError {
  if (REFUSING_STATUSES.has(status)) {
    return new AppError('blocked', {
      field,
      detail: `${url.hostname} answered ${status}`,
      hint: 'The server refused the request.',
    });
  }
  // The hint is the same for every status (it names the situation); the status is in detail.
  return new AppError('unreachable', {
    field,
    detail: `${url.hostname} answered ${status}`,
    hint: 'The server answered with an error.',
  });
}

export function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
