/**
 * Every rate limit of the service, in one table. Fixed windows aligned to the epoch (a day is a
 * UTC day), counted per account or per hashed client address: an IPv4 address, or the IPv6 /64
 * it is in (addressGroup.ts), or the /48 for the limits on making accounts (`ipv6Prefix`).
 *
 * `counts: 'created'` limits count only requests that create something, in the transaction that
 * creates: a request that fails, or replays an earlier answer, counts nothing. `counts:
 * 'requests'` counts every request. `counts: 'fetches'` counts every fetch from elsewhere that a
 * request makes, just before it is made, whether the request then succeeds or not.
 */
export interface LimitRule {
  windows: { max: number; seconds: number }[];
  per: 'address' | 'account';
  /** For a limit per address: the IPv6 prefix counted as one client (64 unless set). */
  ipv6Prefix?: 48 | 64;
  counts: 'created' | 'requests' | 'fetches';
  /** The error code when the limit is hit. */
  code: 'rate_limited' | 'quota';
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** Wrong passwords, wherever one is asked for: 10 per 15 minutes and 50 a day. */
const PASSWORD_GUESSES = [
  { max: 10, seconds: 15 * MINUTE },
  { max: 50, seconds: DAY },
];

export const LIMITS = {
  pagesWithoutKey: {
    windows: [
      { max: 10, seconds: DAY },
      { max: 30, seconds: HOUR },
    ],
    per: 'address',
    ipv6Prefix: 48,
    counts: 'created',
    code: 'rate_limited',
  },
  pagesWithKey: { windows: [{ max: 10, seconds: HOUR }], per: 'account', counts: 'created', code: 'rate_limited' },
  validate: { windows: [{ max: 60, seconds: HOUR }], per: 'address', counts: 'requests', code: 'rate_limited' },
  /** POST /api/upload by URL, and the MCP upload tool: each fetch of an image from elsewhere. */
  uploadByUrl: { windows: [{ max: 30, seconds: HOUR }], per: 'account', counts: 'requests', code: 'rate_limited' },
  /** POST /api/upload with a file (multipart): each image decoded and stored, which costs a core for a moment. */
  uploadFiles: { windows: [{ max: 120, seconds: HOUR }], per: 'account', counts: 'requests', code: 'rate_limited' },
  importPage: { windows: [{ max: 30, seconds: HOUR }], per: 'account', counts: 'requests', code: 'rate_limited' },
  importSocial: { windows: [{ max: 10, seconds: DAY }], per: 'account', counts: 'requests', code: 'quota' },
  /** Invitations sent by e-mail (the API, MCP and the dashboard): each one is a message to someone else. */
  invitations: { windows: [{ max: 30, seconds: DAY }], per: 'account', counts: 'requests', code: 'rate_limited' },
  /** The dashboard's links added without a label: each linked page read for its title counts. */
  linkTitles: { windows: [{ max: 200, seconds: HOUR }], per: 'account', counts: 'requests', code: 'rate_limited' },
  /**
   * A custom domain's changes (the API's PUT and DELETE /api/profiles/{id}/domain, the dashboard's
   * forms and the MCP tools): an attach asks DNS at once and each change republishes the page, so
   * attaching and detaching in a loop is bounded: 30 an hour, 60 a day.
   */
  domainChecks: {
    windows: [
      { max: 30, seconds: HOUR },
      { max: 60, seconds: DAY },
    ],
    per: 'account',
    counts: 'requests',
    code: 'rate_limited',
  },
  claimLink: { windows: [{ max: 10, seconds: HOUR }], per: 'account', counts: 'requests', code: 'rate_limited' },
  claimStatus: { windows: [{ max: 30, seconds: MINUTE }], per: 'address', counts: 'requests', code: 'rate_limited' },
  usernameCheck: { windows: [{ max: 40, seconds: MINUTE }], per: 'address', counts: 'requests', code: 'rate_limited' },
  signupForm: {
    windows: [
      { max: 5, seconds: HOUR },
      { max: 20, seconds: DAY },
    ],
    per: 'address',
    ipv6Prefix: 48,
    counts: 'created',
    code: 'rate_limited',
  },
  /** avatarUrl and importFromUrl of a page create (REST and MCP): each fetch, even when the create fails. */
  createFetches: {
    windows: [
      { max: 30, seconds: HOUR },
      { max: 100, seconds: DAY },
    ],
    per: 'address',
    counts: 'fetches',
    code: 'rate_limited',
  },
  /** Dashboard log-in: failed attempts only (a successful one gives its hit back). */
  login: {
    windows: PASSWORD_GUESSES,
    per: 'address',
    counts: 'requests',
    code: 'rate_limited',
  },
  /**
   * Failed log-ins naming one e-mail, from any address (the subject is the e-mail's keyed hash,
   * counted whether or not an account has it, so the limit tells nothing). A browser that got
   * into the account before (its device mark, platform/edge/devices.ts) is neither counted nor stopped,
   * and a password reset is not limited by it: a stranger's guesses cannot lock the owner out.
   */
  loginByEmail: {
    windows: [
      { max: 20, seconds: HOUR },
      { max: 100, seconds: DAY },
    ],
    per: 'account',
    counts: 'requests',
    code: 'rate_limited',
  },
  /**
   * Wrong codes at the second step (an authenticator-app or recovery code after a right
   * password), per account and per client address: a right code gives its hits back.
   */
  secondStep: { windows: PASSWORD_GUESSES, per: 'account', counts: 'requests', code: 'rate_limited' },
  secondStepByAddress: { windows: PASSWORD_GUESSES, per: 'address', counts: 'requests', code: 'rate_limited' },
  mcp: { windows: [{ max: 120, seconds: MINUTE }], per: 'address', counts: 'requests', code: 'rate_limited' },
  /** OAuth client registrations (platform/edge/oauth/): an assistant registers once per person or install. */
  oauthRegister: {
    windows: [
      { max: 20, seconds: HOUR },
      { max: 50, seconds: DAY },
    ],
    per: 'address',
    counts: 'requests',
    code: 'rate_limited',
  },
  /**
   * Client ID metadata documents the authorization server fetches for the authorization requests
   * of one address (platform/edge/oauth/metadataDocuments.ts): a document already kept costs
   * nothing, so an assistant connecting again never meets it; a page sending the service to fetch
   * address after address does.
   */
  oauthDocument: {
    windows: [
      { max: 30, seconds: HOUR },
      { max: 100, seconds: DAY },
    ],
    per: 'address',
    counts: 'requests',
    code: 'rate_limited',
  },
  /**
   * Wrong current passwords on a password change (PATCH /api/account, the dashboard's account
   * form), per account like log-ins: a right one gives its hit back, so a leaked key cannot guess.
   */
  currentPassword: {
    windows: PASSWORD_GUESSES,
    per: 'account',
    counts: 'requests',
    code: 'rate_limited',
  },
  /**
   * Sign-ups, claims and keyless creates that name an e-mail, each of which can answer
   * email_taken: every try counts, so nobody learns without limit which e-mails have an account.
   */
  emailTries: { windows: [{ max: 20, seconds: HOUR }], per: 'address', counts: 'requests', code: 'rate_limited' },
  /** "Forgot password" forms from one client address, whatever the e-mail. */
  resetByAddress: { windows: [{ max: 10, seconds: HOUR }], per: 'address', counts: 'requests', code: 'rate_limited' },
  /**
   * "Forgot password" forms naming one e-mail (the subject is the e-mail's keyed hash, counted
   * whether or not an account has it, so the limit tells nothing): nobody floods an inbox.
   */
  resetByEmail: {
    windows: [
      { max: 3, seconds: HOUR },
      { max: 10, seconds: DAY },
    ],
    per: 'account',
    counts: 'requests',
    code: 'rate_limited',
  },
  /** "Send the confirmation again", per account. */
  verifyResend: {
    windows: [
      { max: 3, seconds: HOUR },
      { max: 10, seconds: DAY },
    ],
    per: 'account',
    counts: 'requests',
    code: 'rate_limited',
  },
} as const satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof LIMITS;
