import type { Grant } from './rules/roles.js';

/** Who asks: the key's or session's account (null for none), the User-Agent and the client address. */
export interface Caller {
  accountId: string | null;
  /** The User-Agent, cut to USER_AGENT_MAX: kept as createdBy on what the caller makes. */
  userAgent: string;
  /** The client address (behind a trusted proxy, the forwarded one); stored only hashed. */
  address: string;
  /** Who, in words, for a page's history: `key "<label>"`, `the dashboard`, or `no key`. */
  via: string;
  /**
   * Who, as an id that outlives a label, kept with each version a caller makes: `key:<key id>`,
   * `app:<OAuth grant id>`, `person:<account id>` (a browser session); none without either.
   */
  author?: string;
  /** What an OAuth app was allowed (core/rules/scopes.ts); undefined for a key, a session or no one. */
  scopes?: readonly string[];
  /** The role and pages of a key (core/rules/roles.ts); a session's and an app's are the owner's; none without either. */
  grant?: Grant;
}

/** The longest User-Agent kept; longer ones are cut. */
export const USER_AGENT_MAX = 500;
