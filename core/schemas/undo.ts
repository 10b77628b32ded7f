/** POST /api/undo and the undo_changes tool: what one author did since a time, undone. */
import * as v from 'valibot';
import { str } from './fields.js';

export const UndoRequestIn = v.strictObject({
  author: v.pipe(
    str(),
    v.regex(
      /^(key|app|person):[A-Za-z0-9_-]{1,64}$/,
      "author is an id from a page's history: key:<key id>, app:<grant id> or person:<account id>.",
    ),
    v.description(
      "Whose changes to undo, as a version's `author` in the history: `key:<key id>`, `app:<grant id>` or `person:<account id>`.",
    ),
  ),
  since: v.pipe(
    str(),
    v.isoTimestamp('since is a time such as 2026-12-07T09:00:00Z.'),
    // Year 0 has no day in the database's calendar.
    v.check((since) => !since.startsWith('0000'), 'since is a time such as 2026-12-07T09:00:00Z.'),
    v.description('Undo what the author did from this time on (ISO 8601).'),
  ),
  overwrite: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'Also undo pages someone else changed after the author, their changes with it. Default false: such pages are skipped and named.',
      ),
    ),
    false,
  ),
});

export const UndoOut = v.object({
  /** Each page put back: the version it is as at now, and its new version. */
  restored: v.array(
    v.object({ pageId: v.string(), username: v.string(), restoredVersion: v.number(), version: v.number() }),
  ),
  /** Each page the author changed that was left as it is, and why. */
  skipped: v.array(
    v.object({
      pageId: v.string(),
      username: v.string(),
      reason: v.picklist(['changed_since', 'no_earlier_version', 'cannot_restore']),
      detail: v.string(),
    }),
  ),
});
