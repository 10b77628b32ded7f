/**
 * A person's first page: asked for the name the page shows besides its address, and offered to
 * start from their link page elsewhere (Linktree or any page of links: its links) or a social
 * profile (its name, bio and photo), through the imports the API has, under the same limits.
 * What is fetched is fetched first: a failed import shows the form again and makes nothing.
 */
import * as v from 'valibot';
import type { Caller } from '../core/caller.js';
import { createProfile } from '../core/commands/createProfile.js';
import { importProfile } from '../core/commands/importProfile.js';
import { ensureNameFree } from '../core/commands/newPage.js';
import { patchPage } from '../core/commands/updatePage.js';
import type { Page } from '../core/entities.js';
import type { Limiter } from '../core/limiter.js';
import { normalizeBlocks } from '../core/rules/blocks.js';
import { AgentBlocks } from '../core/schemas/blocks.js';
import { Username } from '../core/schemas/fields.js';
import { ProfilePatch } from '../core/schemas/page.js';
import type { Services } from '../core/services.js';
import { parseOrThrow } from '../core/validation.js';
import { importLinks } from '../platform/outbound/linkPage.js';
import { NETWORK_NAMES } from '../platform/outbound/networks.js';
import { platformName } from '../renderer/icons.js';
import type { Form } from './forms.js';

/** The networks a person may start from, for the form's choice: each by its value and its name. */
export const START_NETWORKS = NETWORK_NAMES.map((value) => ({ value, name: platformName(value) }));

/** Makes the page from the form: address, display name, and what the imports bring. */
export async function startPage(
  s: Services,
  limiter: Limiter,
  caller: Caller & { accountId: string },
  input: Form,
): Promise<{ page: Page; links: number; fromProfile: boolean }> {
  const { username } = parseOrThrow(v.strictObject({ username: Username }), {
    username: (input.username ?? '').trim(),
  });
  // The name first: nothing is fetched, counted or stored for a page that cannot be made.
  await ensureNameFree(s.db, username, caller.accountId);
  const who = { accountId: caller.accountId, address: caller.address };
  const linkPage = (input.linkPage ?? '').trim();
  const handle = (input.handle ?? '').trim();
  let links: Awaited<ReturnType<typeof importLinks>> = [];
  if (linkPage) {
    await limiter.enforce('importPage', who);
    links = await importLinks(s.fetcher, linkPage, 'linkPage');
  }
  let imported: Awaited<ReturnType<typeof importProfile>> | null = null;
  if (handle) {
    await limiter.enforce('importSocial', who);
    imported = await importProfile(s, caller.accountId, (input.network ?? '').trim(), handle);
  }
  const blocks = parseOrThrow(
    AgentBlocks,
    links.map((l) => ({ type: 'link', label: l.label, url: l.url })),
  );
  const displayName = (input.displayName ?? '').trim() || imported?.displayName || undefined;
  const templateId = (input.templateId ?? '').trim();
  const patch = parseOrThrow(ProfilePatch, {
    ...(displayName ? { displayName } : {}),
    ...(templateId ? { templateId } : {}),
    ...(imported?.bio ? { bio: imported.bio } : {}),
    ...(imported?.avatar ? { avatar: imported.avatar } : {}),
    ...(blocks.length ? { blocks: normalizeBlocks(blocks) } : {}),
  });
  // Made by a person: not counted against the 10 program-made pages.
  let page = await createProfile(s, caller, { username }, { byProgram: false });
  if (Object.keys(patch).some((k) => k !== 'theme'))
    page = await patchPage(s, caller.accountId, page.id, patch, { by: caller });
  return { page, links: links.length, fromProfile: imported !== null };
}
