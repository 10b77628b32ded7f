/** The tools on the account's pages: list, read, change, delete, statistics, and their history. */
import * as v from 'valibot';
import { getVersion, listVersions, restoreVersion } from '../../core/commands/pageHistory.js';
import { undoChanges } from '../../core/commands/undoChanges.js';
import { deletePage, patchPage } from '../../core/commands/updatePage.js';
import { getPage, getStats, listPages, presentWithLinks } from '../../core/queries/pages.js';
import { OWNER } from '../../core/rules/roles.js';
import { str } from '../../core/schemas/fields.js';
import { ProfilePatch } from '../../core/schemas/page.js';
import { PageOut, PagesOut, StatsOut, VersionOut, VersionsOut } from '../../core/schemas/responses.js';
import { UndoOut, UndoRequestIn } from '../../core/schemas/undo.js';
import { tool } from './tool.js';

/** The page a tool acts on: its `id` argument, as `:id` in the REST route's path. */
export const PageId = v.object({ id: v.pipe(str(), v.description('The page id (24 hex characters)')) });
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
const DeletedOut = v.object({ deleted: v.literal(true), id: v.string() });
const expecting = (version: number | undefined) => (version === undefined ? undefined : { versions: [version] });

export const listPagesTool = tool({
  name: 'list_pages',
  title: 'List pages',
  description: 'All pages of the account, with every editable field and their public URLs.',
  hints: { readOnly: true, openWorld: false },
  output: PagesOut,
  auth: 'key',
  input: v.object({}),
  operation: 'listPages',
  handler: (s, c) => listPages(s, c.accountId, c.grant ?? OWNER),
});

export const getPageTool = tool({
  name: 'get_page',
  title: 'Read a page',
  description: 'One page of the account with every editable field.',
  hints: { readOnly: true, openWorld: false },
  output: PageOut,
  auth: 'key',
  input: PageId,
  operation: 'getPage',
  handler: (s, c, input) => getPage(s, c.accountId, input.id),
});

export const updatePageTool = tool({
  name: 'update_page',
  title: 'Change a page',
  description: `Change some fields of a page (PATCH semantics): only the fields sent change; theme merges field by field; blocks, when sent, replaces the whole list (stored blocks need id, order, visible and type). Set isPublished to publish or unpublish. ${EXPECTED_VERSION}`,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  output: PageOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ExpectedVersionInput.entries, ...ProfilePatch.entries }),
  operation: 'updatePage',
  async handler(s, c, input) {
    const { id, expectedVersion, ...changes } = input;
    return presentWithLinks(
      s,
      await patchPage(s, c.accountId, id, changes, { expected: expecting(expectedVersion), by: c }),
    );
  },
});

export const deletePageTool = tool({
  name: 'delete_page',
  title: 'Delete a page',
  description: `Delete a page and its published files. Its name stays reserved for this account. ${EXPECTED_VERSION}`,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  output: DeletedOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ExpectedVersionInput.entries }),
  operation: 'deletePage',
  async handler(s, c, input) {
    await deletePage(s, c.accountId, input.id, { expected: expecting(input.expectedVersion), by: c });
    return { deleted: true, id: input.id };
  },
});

export const listVersionsTool = tool({
  name: 'list_versions',
  title: "A page's history",
  description:
    "A page's history, newest first: each version's number, time, author (the key's label, the dashboard, moderation), User-Agent and a short summary. Kept 90 days, at most the last 100.",
  hints: { readOnly: true, openWorld: false },
  output: VersionsOut,
  auth: 'key',
  input: PageId,
  operation: 'listVersions',
  handler: (s, c, input) => listVersions(s, c.accountId, input.id),
});

export const getVersionTool = tool({
  name: 'get_version',
  title: 'Read a version of a page',
  description: 'One version of a page as it was, with every editable field.',
  hints: { readOnly: true, openWorld: false },
  output: VersionOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...VersionNumber.entries }),
  operation: 'getVersion',
  handler: (s, c, input) => getVersion(s, c.accountId, input.id, input.version),
});

export const restoreVersionTool = tool({
  name: 'restore_version',
  title: 'Restore a version of a page',
  description: `Make a page what it was at a version, as a new version, and publish it. ${EXPECTED_VERSION}`,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  output: PageOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...VersionNumber.entries, ...ExpectedVersionInput.entries }),
  operation: 'restoreVersion',
  async handler(s, c, input) {
    const row = await restoreVersion(s, c.accountId, input.id, input.version, {
      expected: expecting(input.expectedVersion),
      by: c,
    });
    return presentWithLinks(s, row);
  },
});

export const getStatsTool = tool({
  name: 'get_stats',
  title: 'Page statistics',
  description:
    'Statistics of a page over the last `days` days (1-365, default 30) or the dates `from`-`to` (YYYY-MM-DD): views, unique visitors and taps daily; taps and click-through per block; referrers, countries, devices, browsers, os and campaigns (top 20 plus "other"); and markdownReads by reader (agents, other programs, people).',
  hints: { readOnly: true, openWorld: false },
  output: StatsOut,
  auth: 'key',
  input: v.object({
    ...PageId.entries,
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365))),
    from: v.optional(v.string()),
    to: v.optional(v.string()),
  }),
  operation: 'getStats',
  handler: (s, c, input) => getStats(s, c.accountId, input.id, input),
});

export const undoChangesTool = tool({
  name: 'undo_changes',
  title: 'Undo what one key or app did',
  description:
    "Undo everything one author did since a time: every page it changed goes back to the version before its first change since then, as a new version, and is published. author is a version's author in list_versions (key:<id>, app:<id>, person:<id>). Pages someone else changed after it are skipped and named unless overwrite is true. Answers {restored, skipped}.",
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  output: UndoOut,
  auth: 'key',
  input: UndoRequestIn,
  operation: 'undoChanges',
  handler: (s, c, input) => undoChanges(s, c.accountId, { ...input, since: new Date(input.since) }, c),
});
