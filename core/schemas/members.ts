/** Members of an account and invitations, as asked for (/api/members) and as shown. */
import * as v from 'valibot';
import { MAX_KEY_PAGES, ROLE_NAMES, ROLES } from '../rules/roles.js';
import { ID_PATTERN } from '../secrets.js';
import { Email, str } from './fields.js';

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());

const RoleIn = v.pipe(
  v.picklist(ROLE_NAMES, `role is one of ${ROLE_NAMES.join(', ')}.`),
  v.description(ROLE_NAMES.map((r) => `${r}: ${ROLES[r]}`).join('. ')),
);

const PagesIn = v.optional(
  v.pipe(
    v.array(v.pipe(str(), v.regex(ID_PATTERN, 'A page id is 24 hex characters.'))),
    v.minLength(1, 'Name at least one page, or leave pages out for all of them.'),
    v.maxLength(MAX_KEY_PAGES, `A member is kept to at most ${MAX_KEY_PAGES} pages.`),
    v.description('The pages the member reaches (not for an owner); every page when left out.'),
  ),
);

export const InvitationCreate = v.strictObject({
  email: v.pipe(Email, v.description('Where the invitation goes: a link that works once, for 7 days.')),
  role: RoleIn,
  pages: PagesIn,
});

export const MemberChange = v.strictObject({ role: RoleIn, pages: PagesIn });

export const MemberOut = v.object({
  /** The person's id: their own account's. */
  id: v.string(),
  email: v.nullable(v.string()),
  role: v.picklist(ROLE_NAMES),
  /** The pages the member reaches; null: every page of the account. */
  pages: v.nullable(v.array(v.string())),
  /** The account's own person, who cannot be removed from it. */
  holder: v.boolean(),
  /** When they joined (for the holder, when the account was made). */
  since: DateTimeOut,
});

export const InvitationOut = v.object({
  id: v.string(),
  email: v.string(),
  role: v.picklist(ROLE_NAMES),
  pages: v.nullable(v.array(v.string())),
  createdAt: DateTimeOut,
  expiresAt: DateTimeOut,
});

export const MemberListOut = v.object({
  members: v.array(MemberOut),
  /** Invitations not yet accepted, the newest first. */
  invitations: v.array(InvitationOut),
});
