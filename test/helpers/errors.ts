/** The error code a promise is refused with ('ok' when it resolves); anything but an AppError is rethrown. */
import { AppError } from '../../core/errors.js';

export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}
