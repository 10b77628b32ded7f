/**
 * The one error type of the service. Commands and handlers throw AppError; the error middleware turns it into
 * the error object `{ code, hint, field?, detail?, suggestions?, retryAfter? }` with the code's HTTP status (ERROR_CODES).
 */

/** Every error code with its HTTP status and its stable English hint. */
export const ERROR_CODES = {
  invalid_fields: [400, 'The request does not match the schema; see detail for the first offending field.'],
  too_short: [400, 'Usernames have at least 3 characters.'],
  too_long: [400, 'Usernames have at most 30 characters.'],
  bad_chars: [400, 'Usernames use only lowercase a-z, 0-9 and single hyphens.'],
  edge_hyphen: [400, 'Usernames cannot start or end with a hyphen.'],
  double_hyphen: [400, 'Usernames cannot have two hyphens in a row.'],
  reserved: [400, 'This name belongs to the service; choose another.'],
  bad_path: [400, 'Short paths are 1-40 characters of a-z, 0-9 and hyphens, unique in the page and not reserved.'],
  bad_url: [400, 'Only http(s) URLs with a real hostname are accepted.'],
  blocked: [400, 'The host resolves to a private or local address, or refused the request.'],
  not_image: [400, 'The bytes are not a supported image format.'],
  processing_failed: [400, 'The image could not be decoded.'],
  nothing_found: [400, 'No outbound links were found on that page.'],
  js_only: [400, 'That page builds its links with scripts and cannot be read.'],
  no_file: [400, 'Send a multipart field "file" or a JSON "url".'],
  bad_kind: [400, 'kind must be avatar, background or card.'],
  bad_domain: [
    400,
    'Send a domain name such as links.example.com: letters, digits and hyphens in dot-separated labels.',
  ],
  domain_is_ip: [400, 'Send a domain name, not an IP address.'],
  domain_reserved: [400, "This name is one of the service's own hosts or under them; use a domain of your own."],
  domain_not_public: [
    400,
    'The domain must be registrable under a public suffix (not .local, .internal, .test or a suffix itself).',
  ],
  unauthorized: [401, 'Send a valid key as "Authorization: Bearer svc_sk_…".'],
  invalid_key: [401, 'Keys look like svc_sk_ followed by 43 URL-safe characters.'],
  key_revoked: [401, 'This key was revoked by the owner; use another key.'],
  // 403, not 401: a wrong password sent with a working key must not read as "this key is no good".
  bad_credentials: [403, 'E-mail or password is wrong.'],
  forbidden_via_key: [403, 'This action needs a browser session, not an API key.'],
  forbidden: [
    403,
    "The role of this key (or app) does not allow this; detail names the role it needs. The account's owner can make a key with it.",
  ],
  insufficient_scope: [403, 'The person did not allow this app to do that; ask them to connect it again with more.'],
  proof_required: [
    403,
    'This needs a sign-in within the last 10 minutes: prove it is you again at /dashboard/prove (password, code or passkey), then send the request again.',
  ],
  csrf_failed: [403, "The session's CSRF token is missing or wrong; reload the page and send it again."],
  banned: [403, 'This page was banned by moderation and cannot be changed.'],
  limit_reached: [403, 'This account has reached its 10 program-created pages.'],
  not_found: [404, 'Nothing with this id belongs to your account.'],
  claim_invalid: [404, 'This claim link is not valid.'],
  link_invalid: [404, 'This link is not valid any more: it was used, has expired or never existed. Ask for a new one.'],
  username_taken: [409, 'This username is in use; see suggestions.'],
  email_taken: [409, 'An account with this e-mail exists.'],
  domain_taken: [
    409,
    "Another page holds this domain; detach it there first, or, if it is another account's, publish this page's _linkpage TXT record in place of theirs.",
  ],
  already_member: [409, 'This person is a member of the account already; change their role instead.'],
  claim_used: [409, 'This account has already been claimed.'],
  claim_expired: [409, 'This claim link has expired; ask for a new one.'],
  already_claimed: [409, 'This account already has an e-mail and password.'],
  proposal_conflict: [
    409,
    'The page changed after the proposal was made; detail says how. Approve it with rebase: true to apply the proposed change to the page as it is now, or decline it.',
  ],
  proposal_decided: [409, 'This proposal was already approved or declined.'],
  precondition_failed: [
    412,
    'The page has changed since the version you sent (If-Match or expectedVersion); read it again, redo your change on it and send its new version.',
  ],
  too_large: [413, 'The request is over the size limit.'],
  rate_limited: [429, 'Too many requests; wait retryAfter seconds.'],
  quota: [429, 'The daily quota for this import is used up.'],
  unreachable: [502, 'The URL could not be fetched.'],
  internal: [500, 'Something went wrong on our side; try again. Quote detail when reporting it.'],
  unavailable: [
    503,
    'The database or storage cannot be reached for a moment; try again after Retry-After seconds (a create with the same Idempotency-Key).',
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(s: unknown): s is ErrorCode {
  return typeof s === 'string' && Object.hasOwn(ERROR_CODES, s);
}

export interface ErrorFields {
  hint?: string;
  field?: string;
  detail?: string;
  suggestions?: string[];
  retryAfter?: number;
}

/** The error object as sent: the code and its fields. */
export interface ErrorBody extends ErrorFields {
  code: ErrorCode;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: ErrorFields;

  constructor(code: ErrorCode, fields: ErrorFields = {}) {
    super(fields.hint ?? ERROR_CODES[code][1]);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code][0];
    this.fields = fields;
  }

  toBody(): ErrorBody {
    const { hint, field, detail, suggestions, retryAfter } = this.fields;
    return {
      code: this.code,
      hint: hint ?? ERROR_CODES[this.code][1],
      ...(field !== undefined && { field }),
      ...(detail !== undefined && { detail }),
      ...(suggestions !== undefined && { suggestions }),
      ...(retryAfter !== undefined && { retryAfter }),
    };
  }
}

/**
 * A reason the process cannot start that the operator can fix (a taken port, a data folder in
 * use): its message is one line, printed as it is, without a stack.
 */
export class StartupError extends Error {}
