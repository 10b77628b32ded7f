/** What the HTTP edges keep on a request's `ctx.state`. */
import type { Auth } from './auth.js';
import type { Session } from './sessions.js';

export interface RequestState {
  requestId: string;
  auth?: Auth;
  /** The browser session (routes with auth 'session', and the dashboard); null when there is none. */
  session?: Session | null;
  /** A contributor's change, kept as a proposal instead of made (core/rules/roles.ts). */
  proposing?: boolean;
  /** Set when the answer replays an earlier one (nothing was created). */
  replayed?: boolean;
  /** The route's name in metrics and access lines, for a handler no router matched (the OAuth server's). */
  routeName?: string;
}
