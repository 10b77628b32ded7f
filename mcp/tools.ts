/**
 * The MCP tools: each is a valibot input schema (its JSON Schema is generated from it) and a
 * call of the same command or query the REST route uses. Errors are the same error objects as REST answers.
 */
import * as v from 'valibot';
import type { Caller } from '../core/caller.js';
import { claimLinkFor } from '../core/commands/claimLinks.js';
import { createAgentPage } from '../core/commands/createAgentPage.js';
import { storeImageFromUrl } from '../core/commands/images.js';
import { importableHandle, importProfile } from '../core/commands/importProfile.js';
import { getVersion, listVersions, restoreVersion } from '../core/commands/pageHistory.js';
import { namesEmail } from '../core/commands/people.js';
import { deletePage, patchPage } from '../core/commands/updatePage.js';
import { AppError } from '../core/errors.js';
import type { CommandLimits } from '../core/limiter.js';
import { presentCreatedPage } from '../core/presenters/page.js';
import { describeAccount, validateCreateRequest } from '../core/queries/agent.js';
import { checkUsername } from '../core/queries/checkUsername.js';
import { getPage, getStats, listPages, presentWithLinks } from '../core/queries/pages.js';
import type { LimitName } from '../core/rules/limits.js';
import { CreatePageRequest } from '../core/schemas/agent.js';
import { str } from '../core/schemas/fields.js';
import { ImportPageRequest, ImportProfileRequest } from '../core/schemas/imports.js';
import { ProfilePatch } from '../core/schemas/page.js';
import { UploadByUrl } from '../core/schemas/upload.js';
import type { Services } from '../core/services.js';
import { importLinks } from '../outbound/linkPage.js';
import { NETWORK_NAMES } from '../outbound/networks.js';

export interface Tool {
  name: string;
  description: string;
  input: v.GenericSchema;
  /** Parse the arguments ourselves (validate_page reports every problem instead of the first). */
  rawInput?: boolean;
  needsKey: boolean;
  /**
   * Rate limits (core/rules/limits.ts) that the matching REST route has, applied to the tool call too (after its
   * arguments are parsed); those on what is created or fetched are handed to `run` to count.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each tool's input is its own schema's output
  limits?: (caller: Caller, input: any) => LimitName[];
  /** `caller.accountId` is set whenever `needsKey` is. */
  // biome-ignore lint/suspicious/noExplicitAny: each tool's input is its own schema's output
  run(s: Services, caller: Caller & { accountId: string }, input: any, limits: CommandLimits): Promise<unknown>;
}

const PageId = v.object({ id: v.pipe(str(), v.description('The page id (24 hex characters)')) });
const ExpectedVersionInput = v.object({
  expectedVersion: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('The version of your last read (get_page): the change is made only if the page is still at it'),
    ),
  ),
});
const EXPECTED_VERSION =
  "With expectedVersion (the page's version when you read it) the change is refused with precondition_failed if someone changed the page since; read it again and redo the change.";
const VersionNumber = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('A version number from list_versions')),
});
const expecting = (version: number | undefined) => (version === undefined ? undefined : { versions: [version] });

export const TOOLS: Tool[] = [
  {
    name: 'check_username',
    description:
      'Check whether a page name (subdomain) is free. Answers status free, taken (with free suggestions) or invalid (with the rule broken: too_short, too_long, bad_chars, edge_hyphen, double_hyphen, reserved).',
    input: v.object({ username: v.pipe(str(), v.maxLength(200)) }),
    needsKey: false,
    limits: () => ['usernameCheck'],
    run: (s, _c, input) => checkUsername(s, input.username),
  },
  {
    name: 'create_page',
    description:
      'Create a link-in-bio page. Without an API key this also creates a provisional account and returns apiKey (shown once: keep it and send it as "Authorization: Bearer <key>" to edit the page) and claimUrl (give it to the person who will own the page). With a key it adds a page to that account. Blocks are links, socials, social rows, embeds, messengers and text.',
    input: CreatePageRequest,
    needsKey: false,
    limits: (c, input) => [
      c.accountId ? 'pagesWithKey' : 'pagesWithoutKey',
      'createFetches',
      ...(namesEmail(c.accountId, input) ? (['emailTries'] as const) : []),
    ],
    async run(s, caller, input, limits) {
      return presentCreatedPage(s.config, await createAgentPage(s, caller, input, { limits }));
    },
  },
  {
    name: 'validate_page',
    description:
      'Check a create_page request without writing anything. Lists every problem at once, each with its field.',
    input: CreatePageRequest,
    rawInput: true,
    needsKey: false,
    limits: (c, input) => ['validate', ...(namesEmail(c.accountId, input) ? (['emailTries'] as const) : [])],
    async run(s, c, input) {
      const problems = await validateCreateRequest(s, input, c.accountId);
      return problems.length === 0 ? { valid: true } : { valid: false, problems: problems.map((p) => p.toBody()) };
    },
  },
  {
    name: 'get_me',
    description: 'The account of the API key, its pages and how many more pages programs may create (of 10).',
    input: v.object({}),
    needsKey: true,
    run: (s, c) => describeAccount(s, c.accountId),
  },
  {
    name: 'list_pages',
    description: 'All pages of the account, with every editable field and their public URLs.',
    input: v.object({}),
    needsKey: true,
    run: (s, c) => listPages(s, c.accountId),
  },
  {
    name: 'get_page',
    description: 'One page of the account with every editable field.',
    input: PageId,
    needsKey: true,
    run: (s, c, input) => getPage(s, c.accountId, input.id),
  },
  {
    name: 'update_page',
    description: `Change some fields of a page (PATCH semantics): only the fields sent change; theme merges field by field; blocks, when sent, replaces the whole list (stored blocks need id, order, visible and type). Set isPublished to publish or unpublish. ${EXPECTED_VERSION}`,
    input: v.strictObject({ ...PageId.entries, ...ExpectedVersionInput.entries, ...ProfilePatch.entries }),
    needsKey: true,
    async run(s, c, input) {
      const { id, expectedVersion, ...changes } = input;
      return presentWithLinks(
        s,
        await patchPage(s, c.accountId, id, changes, { expected: expecting(expectedVersion), by: c }),
      );
    },
  },
  {
    name: 'delete_page',
    description: `Delete a page and its published files. Its name stays reserved for this account. ${EXPECTED_VERSION}`,
    input: v.strictObject({ ...PageId.entries, ...ExpectedVersionInput.entries }),
    needsKey: true,
    async run(s, c, input) {
      await deletePage(s, c.accountId, input.id, { expected: expecting(input.expectedVersion), by: c });
      return { deleted: true, id: input.id };
    },
  },
  {
    name: 'list_versions',
    description:
      "A page's history, newest first: each version's number, time, author (the key's label, the dashboard, moderation), User-Agent and a short summary. Kept 90 days, at most the last 100.",
    input: PageId,
    needsKey: true,
    run: (s, c, input) => listVersions(s, c.accountId, input.id),
  },
  {
    name: 'get_version',
    description: 'One version of a page as it was, with every editable field.',
    input: v.strictObject({ ...PageId.entries, ...VersionNumber.entries }),
    needsKey: true,
    run: (s, c, input) => getVersion(s, c.accountId, input.id, input.version),
  },
  {
    name: 'restore_version',
    description: `Make a page what it was at a version, as a new version, and publish it. ${EXPECTED_VERSION}`,
    input: v.strictObject({ ...PageId.entries, ...VersionNumber.entries, ...ExpectedVersionInput.entries }),
    needsKey: true,
    async run(s, c, input) {
      const row = await restoreVersion(s, c.accountId, input.id, input.version, {
        expected: expecting(input.expectedVersion),
        by: c,
      });
      return presentWithLinks(s, row);
    },
  },
  {
    name: 'get_stats',
    description:
      'Statistics of a page over the last `days` days (1-365, default 30) or the dates `from`-`to` (YYYY-MM-DD): views, unique visitors and taps daily; taps and click-through per block; referrers, countries, devices, browsers, os and campaigns (top 20 plus "other"); and markdownReads by reader (agents, other programs, people).',
    input: v.object({
      ...PageId.entries,
      days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365))),
      from: v.optional(v.string()),
      to: v.optional(v.string()),
    }),
    needsKey: true,
    run: (s, c, input) => getStats(s, c.accountId, input.id, input),
  },
  {
    name: 'get_claim_link',
    description:
      'A fresh claim link (valid 7 days) for a provisional account: the person who opens it sets an e-mail and password and owns the account.',
    input: v.object({}),
    needsKey: true,
    limits: () => ['claimLink'],
    run: (s, c) => claimLinkFor(s, c.accountId),
  },
  {
    name: 'upload_image',
    description:
      "Fetch a public image (JPEG, PNG, WebP, AVIF, GIF, TIFF or HEIC; 8 MB for avatar and card, 30 MB for background) and store it for the account. Returns {key, url}: put key in a page's avatar, theme.backgroundImage or a link block's image with update_page.",
    input: UploadByUrl,
    needsKey: true,
    limits: () => ['uploadByUrl'],
    run: (s, c, input) => storeImageFromUrl(s, c.accountId, input.kind, input.url),
  },
  {
    name: 'import_links',
    description:
      'Read the outbound links of a public link page (a Linktree-style page or a personal site). Returns {links: [{label, url}]} in page order; send them as link blocks ({type: "link", label, url}) with create_page or update_page. Nothing is written.',
    input: ImportPageRequest,
    needsKey: true,
    limits: () => ['importPage'],
    run: async (s, _c, input) => ({ links: await importLinks(s.fetcher, input.url) }),
  },
  {
    name: 'import_profile',
    description: `Import display name, bio and photo from a public social profile (networks: ${NETWORK_NAMES.join(', ')}). The photo is stored as an avatar image of the account; returns {network, handle, displayName, bio, avatar} ready for update_page. 10 per day per account.`,
    input: v.object({ network: v.picklist(NETWORK_NAMES), ...ImportProfileRequest.entries }),
    needsKey: true,
    limits: (_c, input) => (importableHandle(input.network, { handle: input.handle }) ? ['importSocial'] : []),
    run: (s, c, input) => importProfile(s, c.accountId, input.network, input.handle),
  },
];

export function keyRequired(): AppError {
  return new AppError('unauthorized', {
    hint: 'This tool needs an API key: send "Authorization: Bearer svc_sk_…" (create_page without a key returns one).',
  });
}
