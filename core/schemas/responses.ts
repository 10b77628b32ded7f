/**
 * Schemas of what the API answers, and the MCP tools too (their outputSchema). They document the
 * answers in openapi.json and tools/list, and the test suite checks every answer against them.
 */
import * as v from 'valibot';
import { ERROR_CODES } from '../errors.js';
import { ROLE_NAMES } from '../rules/roles.js';
import { BlockOut } from './blocks.js';
import { COLOR_SCHEMES, PageAddress, TEMPLATE_IDS } from './fields.js';

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());
export const FocusOut = v.object({ x: v.number(), y: v.number() });
/** Counts and versions are whole numbers on the wire. */
const Int = v.pipe(v.number(), v.integer());

export const ErrorObject = v.object({
  code: v.picklist(Object.keys(ERROR_CODES) as [string, ...string[]]),
  hint: v.optional(v.string()),
  field: v.optional(v.string()),
  detail: v.optional(v.string()),
  suggestions: v.optional(v.array(v.string())),
  retryAfter: v.optional(Int),
});

export const ThemeOut = v.object({
  accent: v.string(),
  scheme: v.picklist(COLOR_SCHEMES),
  backgroundImage: v.nullable(v.string()),
  backgroundFocus: v.nullable(FocusOut),
  overlay: v.number(),
});

const PublishPending = v.pipe(
  v.boolean(),
  v.description(
    'true while the latest change is stored but not yet on the page host because storage refused it (it is published as soon as storage takes it, with no call of yours); false otherwise. isPublished is the setting: whether the page is meant to be online.',
  ),
);

/** What every form of a page starts with (core/presenters/page.ts pageHead). */
const pageHead = {
  id: v.string(),
  username: v.string(),
  url: PageAddress,
  markdownUrl: v.pipe(v.string(), v.description('The Markdown twin of the page, at the same address.')),
  isPublished: v.boolean(),
  publishPending: PublishPending,
  banned: v.boolean(),
};

export const PageOut = v.object({
  ...pageHead,
  version: Int,
  banReason: v.nullable(v.string()),
  nextChangeAt: v.nullable(DateTimeOut),
  createdAt: DateTimeOut,
  updatedAt: DateTimeOut,
  createdBy: v.string(),
  displayName: v.string(),
  bio: v.string(),
  avatar: v.nullable(v.string()),
  avatarFocus: v.nullable(FocusOut),
  templateId: v.picklist(TEMPLATE_IDS),
  layout: v.picklist(['list', 'grid']),
  headerAlign: v.nullable(v.picklist(['left', 'center', 'right'])),
  pageLocale: v.string(),
  utm: v.boolean(),
  adult: v.boolean(),
  branding: v.boolean(),
  theme: ThemeOut,
  blocks: v.array(BlockOut),
});

export const VersionEntryOut = v.object({
  version: Int,
  createdAt: DateTimeOut,
  changedBy: v.string(),
  userAgent: v.string(),
  summary: v.string(),
  /** Who, as an id: `key:<id>`, `app:<grant id>`, `person:<account id>`; null for versions made before ids were kept. */
  author: v.nullable(v.string()),
});

export const VersionsOut = v.object({ current: Int, versions: v.array(VersionEntryOut) });

export const VersionOut = v.object({
  ...VersionEntryOut.entries,
  page: v.object({
    isPublished: v.boolean(),
    ...v.pick(PageOut, [
      'displayName',
      'bio',
      'avatar',
      'avatarFocus',
      'templateId',
      'layout',
      'headerAlign',
      'pageLocale',
      'utm',
      'adult',
      'branding',
      'theme',
      'blocks',
    ]).entries,
  }),
});

export const PageSummaryOut = v.object({
  ...pageHead,
  templateId: v.picklist(TEMPLATE_IDS),
  blockCount: Int,
  updatedAt: DateTimeOut,
});

export const AccountOut = v.object({
  id: v.string(),
  email: v.nullable(v.string()),
  locale: v.string(),
  timeZone: v.string(),
  createdAt: DateTimeOut,
  provisional: v.boolean(),
  emailVerified: v.boolean(),
  createdBy: v.string(),
});

export const CreatePageOut = v.object({
  account: v.object({ id: v.string(), provisional: v.boolean() }),
  page: PageOut,
  apiKey: v.optional(v.string()),
  claimUrl: v.optional(v.string()),
  claimExpiresAt: v.optional(DateTimeOut),
});

export const ValidateOut = v.object({
  valid: v.boolean(),
  problems: v.optional(v.array(ErrorObject)),
});

export const UsernameCheckOut = v.object({
  username: v.string(),
  status: v.picklist(['free', 'taken', 'invalid']),
  suggestions: v.optional(v.array(v.string())),
  reason: v.optional(v.string()),
});

export const MeOut = v.object({
  account: AccountOut,
  /** What the caller may do (core/rules/roles.ts); `pages` holds only the pages it reaches. */
  role: v.picklist(ROLE_NAMES),
  pages: v.array(PageSummaryOut),
  remainingPageSlots: Int,
});

export const ClaimLinkOut = v.object({ claimUrl: v.string(), expiresAt: DateTimeOut });
export const ClaimStatusOut = v.object({ status: v.picklist(['pending', 'claimed', 'expired', 'invalid']) });
export const PagesOut = v.object({ pages: v.array(PageOut) });

export const WebhookOut = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  description: v.string(),
  payload: v.picklist(['standard', 'legacy']),
  enabled: v.boolean(),
  disabledAt: v.nullable(DateTimeOut),
  disabledReason: v.nullable(v.string()),
  failingSince: v.nullable(DateTimeOut),
  previousSecretUntil: v.nullable(DateTimeOut),
  createdAt: DateTimeOut,
  createdBy: v.string(),
});
export const WebhookListOut = v.object({ webhooks: v.array(WebhookOut) });
export const WebhookSecretOut = v.object({ ...WebhookOut.entries, secret: v.string() });
export const DeliveryOut = v.object({
  id: v.string(),
  eventId: v.string(),
  type: v.string(),
  state: v.picklist(['pending', 'delivered', 'failed']),
  attempts: Int,
  createdAt: DateTimeOut,
  lastAttemptAt: v.nullable(DateTimeOut),
  nextAttemptAt: v.nullable(DateTimeOut),
  lastStatus: v.nullable(Int),
  lastError: v.nullable(v.string()),
  deliveredAt: v.nullable(DateTimeOut),
});
export const DeliveryListOut = v.object({ deliveries: v.array(DeliveryOut) });

const NamedViews = v.array(v.object({ name: v.string(), views: Int }));

export const StatsOut = v.object({
  from: v.string(),
  to: v.string(),
  timeZone: v.string(),
  views: Int,
  uniques: Int,
  taps: Int,
  markdownReads: v.object({
    total: Int,
    readers: v.array(v.object({ name: v.string(), reads: Int })),
  }),
  daily: v.array(v.object({ date: v.string(), views: Int, uniques: Int, taps: Int, markdownReads: Int })),
  blocks: v.array(v.object({ id: v.string(), taps: Int, ctr: v.number() })),
  referrers: NamedViews,
  countries: NamedViews,
  devices: NamedViews,
  browsers: NamedViews,
  os: NamedViews,
  campaigns: NamedViews,
});

export const UploadOut = v.object({ key: v.string(), url: v.string() });

export const ImportPageOut = v.object({ links: v.array(v.object({ label: v.string(), url: v.string() })) });

export const ImportProfileOut = v.object({
  network: v.string(),
  handle: v.string(),
  displayName: v.nullable(v.string()),
  bio: v.nullable(v.string()),
  avatar: v.nullable(v.string()),
});
