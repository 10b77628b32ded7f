/** An API key as asked for (POST /api/keys) and as shown: never the key but once, when it is made. */
import * as v from 'valibot';
import { MAX_KEY_PAGES, ROLE_NAMES, ROLES } from '../rules/roles.js';
import { ID_PATTERN } from '../secrets.js';
import { str } from './fields.js';

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());

export const KeyCreate = v.strictObject({
  label: v.optional(v.pipe(str(), v.trim(), v.maxLength(80)), ''),
  role: v.optional(
    v.pipe(
      v.picklist(ROLE_NAMES, `role is one of ${ROLE_NAMES.join(', ')}.`),
      v.description(ROLE_NAMES.map((r) => `${r}: ${ROLES[r]}`).join('. ')),
    ),
    'owner',
  ),
  pages: v.optional(
    v.pipe(
      v.array(v.pipe(str(), v.regex(ID_PATTERN, 'A page id is 24 hex characters.'))),
      v.minLength(1, 'Name at least one page, or leave pages out for all of them.'),
      v.maxLength(MAX_KEY_PAGES, `A key names at most ${MAX_KEY_PAGES} pages.`),
      v.description('The pages the key reaches (not on an owner key); every page when left out.'),
    ),
  ),
});

export const ApiKeyOut = v.object({
  id: v.string(),
  label: v.string(),
  /** The first and last characters, to tell keys apart; never the key. */
  hint: v.string(),
  createdAt: DateTimeOut,
  lastUsedAt: v.nullable(DateTimeOut),
  /** The User-Agent of the request that created the key. */
  createdBy: v.string(),
  /** What the key may do: owner, editor, contributor or viewer (core/rules/roles.ts). */
  role: v.picklist(ROLE_NAMES),
  /** The pages the key reaches; null: every page of the account. */
  pages: v.nullable(v.array(v.string())),
});
export const ApiKeyListOut = v.object({ keys: v.array(ApiKeyOut) });
export const ApiKeyCreatedOut = v.object({ ...ApiKeyOut.entries, key: v.string() });
