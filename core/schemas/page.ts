/** Request schemas of /api/profiles: the profile a page shows, replaced whole or patched. */
import * as v from 'valibot';
import { StoredBlocks } from './blocks.js';
import {
  Accent,
  ColorScheme,
  DEFAULT_ACCENT,
  DEFAULT_OVERLAY,
  Focus,
  HeaderAlign,
  Layout,
  Locale,
  Overlay,
  StorageKey,
  str,
  TemplateIdSchema,
  text,
  Username,
} from './fields.js';

const editable = {
  displayName: text(0, 60),
  avatar: v.nullable(StorageKey),
  avatarFocus: v.nullable(Focus),
  bio: text(0, 300),
  templateId: TemplateIdSchema,
  layout: Layout,
  headerAlign: v.nullable(HeaderAlign),
  pageLocale: Locale,
  isPublished: v.boolean(),
  utm: v.boolean(),
  /** The page as a whole is for adults: visitors confirm their age before the page shows (beside a link's `adult`). */
  adult: v.boolean(),
  /** "Made with linkpage" at the page's foot and the mark on its share card, where the operator lets the owner choose (BRANDING=owner). */
  branding: v.boolean(),
  blocks: StoredBlocks,
};

/** What reads add about publishing: sent back, it is dropped, so a read page can be sent as it is. */
const readOnlyPublishPending = v.optional(
  v.pipe(
    v.boolean(),
    v.transform(() => undefined),
    v.description('Read-only (see the answers); ignored when sent.'),
  ),
);

/** PATCH: any subset; theme merges field by field, blocks replaces the list. */
export const ProfilePatch = v.strictObject({
  publishPending: readOnlyPublishPending,
  displayName: v.optional(editable.displayName),
  avatar: v.optional(editable.avatar),
  avatarFocus: v.optional(editable.avatarFocus),
  bio: v.optional(editable.bio),
  templateId: v.optional(editable.templateId),
  layout: v.optional(editable.layout),
  headerAlign: v.optional(editable.headerAlign),
  pageLocale: v.optional(editable.pageLocale),
  isPublished: v.optional(editable.isPublished),
  utm: v.optional(editable.utm),
  adult: v.optional(editable.adult),
  branding: v.optional(editable.branding),
  theme: v.optional(
    v.strictObject({
      accent: v.optional(Accent),
      scheme: v.optional(ColorScheme),
      backgroundImage: v.optional(v.nullable(StorageKey)),
      backgroundFocus: v.optional(v.nullable(Focus)),
      overlay: v.optional(Overlay),
    }),
    {},
  ),
  blocks: v.optional(editable.blocks),
});

/** PUT: every editable field; the nullable ones become null when left out, the theme takes its defaults. */
export const ProfileReplace = v.strictObject({
  publishPending: readOnlyPublishPending,
  displayName: editable.displayName,
  avatar: v.optional(editable.avatar, null),
  avatarFocus: v.optional(editable.avatarFocus, null),
  bio: editable.bio,
  templateId: editable.templateId,
  layout: editable.layout,
  headerAlign: v.optional(editable.headerAlign, null),
  pageLocale: editable.pageLocale,
  isPublished: editable.isPublished,
  utm: editable.utm,
  adult: v.optional(editable.adult, false),
  branding: v.optional(editable.branding, true),
  // An omitted theme, or omitted theme fields, take their defaults.
  theme: v.optional(
    v.strictObject({
      accent: v.optional(Accent, DEFAULT_ACCENT),
      scheme: v.optional(ColorScheme, 'fixed'),
      backgroundImage: v.optional(v.nullable(StorageKey), null),
      backgroundFocus: v.optional(v.nullable(Focus), null),
      overlay: v.optional(Overlay, DEFAULT_OVERLAY),
    }),
    {},
  ),
  blocks: editable.blocks,
});

/** POST /api/profiles: another subdomain on the account. */
export const ProfileCreate = v.strictObject({
  username: Username,
  templateId: v.optional(TemplateIdSchema),
});

/** A date in a statistics range; whether it is a real date and the range rules are core/rules/statsRange.ts. */
const StatsDate = v.pipe(str(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.'));

/** GET …/stats?days= (1-365 days ending today in the owner's time zone) or ?from=&to=. */
export const StatsQuery = v.object({
  days: v.optional(
    v.pipe(
      str(),
      v.regex(/^\d{1,3}$/, 'Use a whole number of days from 1 to 365.'),
      v.transform(Number),
      // What the string means (openapi.json documents the parameter by it: an integer, 1-365).
      v.number(),
      v.integer(),
      v.minValue(1, 'Use a whole number of days from 1 to 365.'),
      v.maxValue(365, 'Use a whole number of days from 1 to 365.'),
    ),
  ),
  from: v.optional(StatsDate),
  to: v.optional(StatsDate),
});

export type ProfilePatchInput = v.InferOutput<typeof ProfilePatch>;
export type ProfileReplaceInput = v.InferOutput<typeof ProfileReplace>;
