/**
 * What the database keeps, as the rest of the code sees it: camelCase entities. Only `store/`
 * knows the tables and their snake_case columns; each repository maps its rows to these types
 * and back. A field is named for its column (`bannedAt` for `banned_at`), but for
 * `Page.renderVersion`, which the column names only for the template.
 */
import type { Block, Profile } from './model.js';
import type { Role } from './rules/roles.js';

/** A page: one per subdomain, its profile and blocks stored whole. */
export interface Page {
  id: string;
  accountId: string;
  username: string;
  byProgram: boolean;
  isPublished: boolean;
  bannedAt: Date | null;
  banReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  profile: Profile;
  blocks: Block[];
  firstViewedAt: Date | null;
  /** The next showFrom/showUntil boundary of a visible block, when the page is published again. */
  nextChangeAt: Date | null;
  /**
   * The render version (template and site addresses, renderer/versions.ts) the published files
   * were made with; null until first published.
   */
  renderVersion: string | null;
  /**
   * The drawing (renderer/ogImage.ts OG_VERSION) of the share card the page last named as its
   * own, stored; null until known. Another than the current one: its card waits to be drawn again.
   */
  cardVersion: string | null;
  /** Raised by every change of the page. */
  version: number;
}

/** An account: provisional until claimed with an e-mail and password. */
export interface Account {
  id: string;
  email: string | null;
  passwordHash: string | null;
  locale: string;
  createdAt: Date;
  claimedAt: Date | null;
  createdBy: string;
  /** When the e-mail was confirmed through its link; null until then. */
  emailVerifiedAt: Date | null;
  /** Pages programs have made on the account, deleted ones included. */
  programPagesMade: number;
  /** The IANA time zone statistics are shown in (UTC until chosen). */
  timeZone: string;
}

/** An API key: the SHA-256 of the key, never the key. */
export interface ApiKey {
  id: string;
  accountId: string;
  hash: string;
  hint: string;
  label: string;
  createdAt: Date;
  createdBy: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** What the key may do (core/rules/roles.ts), and the pages it reaches (null: all of them). */
  role: Role;
  pages: readonly string[] | null;
}

/** A dashboard session, found by the hash of the cookie's token. */
export interface Session {
  id: string;
  tokenHash: string;
  accountId: string;
  csrf: string;
  userAgent: string;
  /** The ISO code of the country the log-in came from (`unknown` when not known; null before it was kept). */
  country: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date | null;
  /** When its person last proved who they are (core/rules/freshProof.ts). */
  provedAt: Date;
  /**
   * The account it works in when its person switched to one they are a member of, with their
   * role and pages there; null in their own account (or when the membership is gone).
   */
  acting: { accountId: string; role: Role; pages: readonly string[] | null; personEmail: string } | null;
}

/** A person who is a member of another person's account, with a role (core/rules/roles.ts). */
export interface Member {
  accountId: string;
  personId: string;
  /** The e-mail of the other side: the member's, or in `ofPerson` the account's. */
  email: string | null;
  role: Role;
  /** The pages the member reaches (null: every page of the account). */
  pages: readonly string[] | null;
  /** Who added them: the person id of whoever invited them. */
  addedBy: string;
  createdAt: Date;
}

/** An invitation by e-mail to become a member: the SHA-256 of its link's token, never the token. */
export interface Invitation {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  pages: readonly string[] | null;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

/** A claim link's token (its SHA-256), its expiry and when it was used. */
export interface ClaimToken {
  id: string;
  accountId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export type MailTokenPurpose = 'reset' | 'verify';

/** The token of a link sent by e-mail (a password reset, an e-mail confirmation). */
export interface MailToken {
  id: string;
  accountId: string;
  purpose: MailTokenPurpose;
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A webhook endpoint: where an account wants its events sent, and with which (sealed) secret. */
export interface Webhook {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  createdBy: string;
  failingSince: Date | null;
  lastFailedAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** The body it is sent (core/events.ts): Standard Webhooks', or the one of before. */
  payload: WebhookPayload;
}

export type WebhookPayload = 'standard' | 'legacy';

/** One event sent (or to send) to one endpoint. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  createdAt: Date;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

/** A claimed delivery with what sending it needs from its endpoint. */
export interface ClaimedDelivery extends WebhookDelivery {
  accountId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
}

/** One entry of a page's history. */
export interface PageVersionEntry {
  version: number;
  createdAt: Date;
  changedBy: string;
  userAgent: string;
  summary: string;
  /** Who, as an id (`key:<id>`, `app:<grant id>`, `person:<account id>`); null before ids were kept. */
  author: string | null;
}

/** A kept version of a page, with its content. */
export interface PageVersion extends PageVersionEntry {
  profile: Profile;
  blocks: Block[];
  isPublished: boolean;
}

export type LinkOutcome = 'ok' | 'failed' | 'unknown';

/** What the nightly link check found for one URL. */
export interface LinkCheck {
  url: string;
  checkedAt: Date | null;
  outcome: LinkOutcome | null;
  status: number | null;
  error: string | null;
  failedNights: number;
  brokenSince: Date | null;
}

/** The first answer to a request sent with an Idempotency-Key. */
export interface IdempotencyRecord {
  requestHash: string;
  status: number | null;
  body: string | null;
}

/** What a DNS check of a custom domain found: its _linkpage TXT values, and where the name points. */
export interface DomainFound {
  txt: string[];
  cname: string[];
  addresses: string[];
}

/** A page's custom domain (platform/store/pageDomains.ts), in one of its states. */
export interface PageDomain {
  pageId: string;
  accountId: string;
  domain: string;
  state: 'pending' | 'active' | 'failing';
  attachedAt: Date;
  /** When the current run of checks started (the attach, or the last repeated PUT). */
  checksSince: Date;
  /** Failed checks of a pending domain since checksSince. */
  attempts: number;
  nextCheckAt: Date | null;
  checkedAt: Date | null;
  found: DomainFound | null;
  /** Why the last check did not pass, or null. */
  problem: string | null;
  verifiedAt: Date | null;
  failingSince: Date | null;
}

export type ProposalStatus = 'pending' | 'approved' | 'declined';

/** A change proposed to a page (a contributor's), kept until an owner or editor decides on it. */
export interface Proposal {
  id: string;
  pageId: string;
  /** The page's version the change was made on. */
  baseVersion: number;
  /** A PATCH's fields (`patch`) or a PUT's page (`replace`), as sent: what a rebase applies again. */
  kind: 'patch' | 'replace';
  input: Record<string, unknown>;
  /** The page as the change would make it, on its base version. */
  profile: Profile;
  blocks: Block[];
  isPublished: boolean;
  summary: string;
  author: string | null;
  changedBy: string;
  userAgent: string;
  createdAt: Date;
  status: ProposalStatus;
  note: string;
  decidedAt: Date | null;
  decidedBy: string | null;
  /** The page's version the approval made. */
  version: number | null;
}
