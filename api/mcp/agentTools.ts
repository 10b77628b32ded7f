/** The tools to create and discover: a name's status, a page (and its account), the account, claim links. */
import * as v from 'valibot';
import { claimLinkFor } from '../../core/commands/claimLinks.js';
import { createAgentPage } from '../../core/commands/createAgentPage.js';
import { presentCreatedPage } from '../../core/presenters/page.js';
import { describeAccount, validateCreateRequest } from '../../core/queries/agent.js';
import { checkUsername } from '../../core/queries/checkUsername.js';
import { pageStatesOf } from '../../core/queries/publishState.js';
import { OWNER } from '../../core/rules/roles.js';
import { CreatePageRequest } from '../../core/schemas/agent.js';
import { str } from '../../core/schemas/fields.js';
import { ClaimLinkOut, CreatePageOut, MeOut, UsernameCheckOut, ValidateOut } from '../../core/schemas/responses.js';
import { tool } from './tool.js';

export const checkUsernameTool = tool({
  name: 'check_username',
  title: 'Check a page name',
  description:
    'Check whether a page name (subdomain) is free. Answers status free, taken (with free suggestions) or invalid (with the rule broken: too_short, too_long, bad_chars, edge_hyphen, double_hyphen, reserved).',
  hints: { readOnly: true, openWorld: false },
  output: UsernameCheckOut,
  auth: 'optional-key',
  input: v.object({ username: v.pipe(str(), v.maxLength(200)) }),
  operation: 'checkUsername',
  handler: (s, _c, input) => checkUsername(s, input.username),
});

export const createPageTool = tool({
  name: 'create_page',
  title: 'Create a page',
  description:
    'Create a link-in-bio page. Without an API key this also creates a provisional account and returns apiKey (shown once: keep it and send it as "Authorization: Bearer <key>" to edit the page) and claimUrl (give it to the person who will own the page). With a key it adds a page to that account. Blocks are links, socials, social rows, embeds, messengers and text.',
  // It fetches avatarUrl and importFromUrl when given.
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  output: CreatePageOut,
  auth: 'optional-key',
  input: CreatePageRequest,
  operation: 'createPage',
  async handler(s, caller, input, limits) {
    const created = await createAgentPage(s, caller, input, { limits });
    return presentCreatedPage(s.config, created, await pageStatesOf(s, [created.page]));
  },
});

export const validatePageTool = tool({
  name: 'validate_page',
  title: 'Check a page before creating it',
  description:
    'Check a create_page request without writing anything. Lists every problem at once, each with its field.',
  hints: { readOnly: true, openWorld: false },
  output: ValidateOut,
  auth: 'optional-key',
  input: CreatePageRequest,
  rawInput: true,
  operation: 'validatePage',
  async handler(s, c, input) {
    const problems = await validateCreateRequest(s, input, c.accountId);
    return problems.length === 0 ? { valid: true } : { valid: false, problems: problems.map((p) => p.toBody()) };
  },
});

export const getMeTool = tool({
  name: 'get_me',
  title: 'The account',
  description: 'The account of the API key, its pages and how many more pages programs may create (of 10).',
  hints: { readOnly: true, openWorld: false },
  output: MeOut,
  auth: 'key',
  input: v.object({}),
  operation: 'getMe',
  handler: (s, c) => describeAccount(s, c.accountId, c.grant ?? OWNER),
});

export const getClaimLinkTool = tool({
  name: 'get_claim_link',
  title: 'A claim link',
  description:
    'A fresh claim link (valid 7 days) for a provisional account: the person who opens it sets an e-mail and password and owns the account.',
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  output: ClaimLinkOut,
  auth: 'key',
  input: v.object({}),
  operation: 'getClaimLink',
  handler: (s, c) => claimLinkFor(s, c.accountId),
});
