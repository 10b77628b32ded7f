/** What an account may hold at once; one more is refused with `limit_reached`. */

/** Live (unrevoked) API keys. */
export const MAX_LIVE_KEYS = 10;

/** Webhook endpoints. */
export const MAX_WEBHOOKS = 10;

/** Proposals waiting for a decision, per page. */
export const MAX_PENDING_PROPOSALS = 20;

/** People who are members of an account besides its own person (core/commands/members.ts). */
export const MAX_MEMBERS = 25;

/** Invitations waiting to be accepted (each counts toward MAX_MEMBERS too). */
export const MAX_PENDING_INVITATIONS = 20;

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;
