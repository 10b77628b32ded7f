/** What an account may hold at once; one more is refused with `limit_reached`. */

/** Live (unrevoked) API keys. */
export const MAX_LIVE_KEYS = 10;

/** Webhook endpoints. */
export const MAX_WEBHOOKS = 10;

/** Proposals waiting for a decision, per page. */
export const MAX_PENDING_PROPOSALS = 20;
