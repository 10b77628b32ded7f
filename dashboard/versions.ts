/**
 * The editor's forms carry the page's version they were made from (a hidden `version` field):
 * a change someone else made since (another browser, a program with a key) refuses the form's
 * change, and the person is told so in words, with the page shown as it is now.
 */
import type { ExpectedVersion } from '../core/commands/updatePage.js';
import { AppError } from '../core/errors.js';

export function formVersion(value: unknown): ExpectedVersion {
  return typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value) ? { versions: [Number(value)] } : undefined;
}

const CHANGED_MEANWHILE =
  'Someone else changed this page after you opened it (in another window, or a program with a key). Your change was not saved: the editor now shows the page as it is, so make your change again.';

/** Runs a change made from a form, saying in words when the page moved on meanwhile. */
export async function fromForm<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof AppError && err.code === 'precondition_failed') {
      throw new AppError('precondition_failed', { hint: CHANGED_MEANWHILE });
    }
    throw err;
  }
}
