/**
 * The seven block types (BLOCK_TYPES). A stored block (in a page or a profile update) carries id,
 * order and visible; an agent block (in the create-page request) may leave them out.
 */
import * as v from 'valibot';
import { DateTime, Email, Focus, isAppLink, LinkUrl, SocialUrl, StorageKey, str, text } from './fields.js';

export const MAX_BLOCKS = 80;
export const EMBED_PROVIDERS = ['youtube', 'spotify', 'soundcloud', 'applemusic', 'tiktok'] as const;
export const MESSENGERS = ['telegram', 'whatsapp', 'viber'] as const;
const BLOCK_TYPES = ['link', 'social', 'socialRow', 'embed', 'messenger', 'text', 'contact'] as const;
/** Items a social row holds at most. */
export const SOCIAL_ROW_MAX = 20;

const BlockId = text(1, 40);
const Order = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999));
/** A short path `/<path>` on the page host (router/pageHost.ts answers the same form). */
export const SHORT_PATH = /^[a-z0-9-]{1,40}$/;
const ShortPath = v.pipe(str(), v.regex(SHORT_PATH, 'bad_path'));
const AppLink = v.pipe(str(), v.check(isAppLink, 'bad_url'));

/**
 * Fields a request may leave out take their default here, so a parsed block is whole: the
 * stored block type (core/model.ts) is this schema's output. Only an agent block may leave out
 * id and order (the server assigns them) and visible (true).
 */
const schedule = {
  showFrom: v.optional(v.nullable(DateTime), null),
  showUntil: v.optional(v.nullable(DateTime), null),
};
const storedBase = { id: BlockId, order: Order, visible: v.boolean(), ...schedule };
const agentBase = {
  id: v.optional(BlockId),
  order: v.optional(Order),
  visible: v.optional(v.boolean(), true),
  ...schedule,
};

/** What each block type adds to the shared fields. */
const link = {
  type: v.literal('link'),
  label: text(1, 120),
  url: LinkUrl,
  note: v.optional(text(0, 160), ''),
  image: v.optional(v.nullable(StorageKey), null),
  imageFocus: v.optional(v.nullable(Focus), null),
  badge: v.optional(v.nullable(text(0, 20)), null),
  featured: v.optional(v.boolean(), false),
  adult: v.optional(v.boolean(), false),
  pulse: v.optional(v.boolean(), false),
  path: v.optional(v.nullable(ShortPath), null),
  apps: v.optional(
    v.nullable(
      v.strictObject({
        ios: v.optional(v.nullable(AppLink), null),
        android: v.optional(v.nullable(AppLink), null),
      }),
    ),
    null,
  ),
  /** What reads add (the nightly link check's finding): sent back, it is dropped, so a read block can be sent as it is. */
  linkStatus: v.optional(
    v.pipe(
      // As reads give it (LinkStatusOut): an object or null.
      v.nullable(v.looseObject({})),
      v.transform(() => undefined),
      v.description('Read-only (see the answers); ignored when sent.'),
    ),
  ),
};
const social = {
  type: v.literal('social'),
  platform: text(1, 40),
  url: SocialUrl,
  counter: v.optional(v.nullable(text(0, 20)), null),
};
const socialRow = {
  type: v.literal('socialRow'),
  items: v.pipe(
    v.array(v.strictObject({ platform: text(1, 40), url: SocialUrl })),
    v.maxLength(SOCIAL_ROW_MAX, `A social row holds at most ${SOCIAL_ROW_MAX} items.`),
  ),
};
const embed = {
  type: v.literal('embed'),
  provider: v.picklist(EMBED_PROVIDERS, `Use one of: ${EMBED_PROVIDERS.join(', ')}.`),
  url: LinkUrl,
  title: v.optional(text(0, 120), ''),
};
const messenger = {
  type: v.literal('messenger'),
  platform: v.picklist(MESSENGERS, `Use one of: ${MESSENGERS.join(', ')}.`),
  handle: text(1, 60),
  label: v.optional(text(0, 80), ''),
};
const textBlock = {
  type: v.literal('text'),
  content: text(1, 600),
  variant: v.optional(v.picklist(['heading', 'paragraph']), 'paragraph'),
};

/** Phone numbers and e-mails a contact card holds at most, each. */
export const CONTACT_MAX_EACH = 5;
/** A phone number as people write it: digits, spaces, dashes, dots, brackets, a leading +. */
export const PHONE = /^\+?[0-9(][0-9 ().-]{2,29}$/;
const PHONE_HINT = 'A phone number is 3–30 digits, spaces, dashes, dots or brackets, with an optional + first.';
/** A contact card (at most one a page): the page links it as a vCard (contact.vcf) to save. */
const contact = {
  type: v.literal('contact'),
  name: text(1, 100),
  organisation: v.optional(text(0, 100), ''),
  title: v.optional(text(0, 100), ''),
  phones: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          str(),
          v.trim(),
          v.regex(PHONE, PHONE_HINT),
          // At least 3 digits (a check, not a lookahead in the pattern, which JSON Schema tools often cannot read).
          v.check((phone) => (phone.match(/\d/g) ?? []).length >= 3, PHONE_HINT),
        ),
      ),
      v.maxLength(CONTACT_MAX_EACH, `A contact card holds at most ${CONTACT_MAX_EACH} phone numbers.`),
    ),
    [],
  ),
  emails: v.optional(
    v.pipe(v.array(Email), v.maxLength(CONTACT_MAX_EACH, `A contact card holds at most ${CONTACT_MAX_EACH} e-mails.`)),
    [],
  ),
  website: v.optional(v.nullable(LinkUrl), null),
  address: v.optional(text(0, 300), ''),
};

const TYPE_HINT = `Use one of the block types: ${BLOCK_TYPES.join(', ')}.`;

/** Every block type over the shared fields of `base`; `linkExtra` adds to (or replaces) the link's fields. */
function blockVariant<const Base extends v.ObjectEntries, const Extra extends v.ObjectEntries = Record<never, never>>(
  base: Base,
  linkExtra?: Extra,
) {
  return v.variant(
    'type',
    [
      v.strictObject({ ...base, ...link, ...(linkExtra as Extra) }),
      v.strictObject({ ...base, ...social }),
      v.strictObject({ ...base, ...socialRow }),
      v.strictObject({ ...base, ...embed }),
      v.strictObject({ ...base, ...messenger }),
      v.strictObject({ ...base, ...textBlock }),
      v.strictObject({ ...base, ...contact }),
    ],
    TYPE_HINT,
  );
}

/** A block as stored and as PATCH/PUT send it: id, order and visible required. */
export const StoredBlock = blockVariant(storedBase);

/** What the nightly link check found for a link block's URL: null until it was first checked. */
export const LinkStatusOut = v.nullable(
  v.object({
    state: v.picklist(['ok', 'failing', 'broken', 'unknown']),
    checkedAt: v.pipe(v.string(), v.isoTimestamp()),
    since: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
    status: v.nullable(v.number()),
    detail: v.nullable(v.string()),
  }),
);

/** A block as reads answer it: stored, with a link's `linkStatus`. */
export const BlockOut = blockVariant(storedBase, { linkStatus: v.optional(LinkStatusOut) });

/** A block in a create-page request: id, order and visible may be left out. */
export const AgentBlock = blockVariant(agentBase);

export const StoredBlocks = v.pipe(
  v.array(StoredBlock),
  v.maxLength(MAX_BLOCKS, `A page holds at most ${MAX_BLOCKS} blocks.`),
);
export const AgentBlocks = v.pipe(
  v.array(AgentBlock),
  v.maxLength(MAX_BLOCKS, `A page holds at most ${MAX_BLOCKS} blocks.`),
);

export type StoredBlockInput = v.InferOutput<typeof StoredBlock>;
export type AgentBlockInput = v.InferOutput<typeof AgentBlock>;

/** Hosts each embed provider serves from; an embed URL elsewhere cannot be embedded. */
export const EMBED_HOSTS: Record<(typeof EMBED_PROVIDERS)[number], string[]> = {
  youtube: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'],
  spotify: ['spotify.com'],
  soundcloud: ['soundcloud.com'],
  applemusic: ['music.apple.com'],
  tiktok: ['tiktok.com'],
};
