/** The Page record every client sees: each field listed explicitly. */
import type { CreatedAgentPage } from '../commands/createAgentPage.js';
import type { Page } from '../entities.js';
import type { Block, Profile } from '../model.js';
import type { LinkStatuses } from '../queries/linkStatus.js';
import type { PageStates } from '../queries/publishState.js';
import { pageUrl, type Services } from '../services.js';

/**
 * What every form of a page starts with: who it is, where it lives (on its custom domain when it
 * serves on one), whether it is up, and whether its latest change is still on its way there
 * (`states`: lookupsOf in core/queries/pageLookups.ts, or pageStatesOf).
 */
function pageHead(config: Services['config'], row: Page, states: PageStates) {
  const url = pageUrl(config, row.username, states.domains.get(row.id));
  return {
    id: row.id,
    username: row.username,
    url,
    markdownUrl: `${url}page.md`,
    isPublished: row.isPublished,
    publishPending: states.pending.has(row.username),
    banned: row.bannedAt !== null,
  };
}

/** The page with every field; `links` (lookupsOf, or linkStatusesOf) gives link blocks their `linkStatus`, null when unknown. */
export function presentPage(config: Services['config'], row: Page, states: PageStates, links?: LinkStatuses) {
  return {
    ...pageHead(config, row, states),
    version: row.version,
    banReason: row.banReason,
    nextChangeAt: row.nextChangeAt ? row.nextChangeAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: row.createdBy,
    ...presentContent(row.profile, row.blocks),
    blocks: row.blocks.map((b) => (b.type === 'link' ? { ...b, linkStatus: links?.get(b.url) ?? null } : b)),
  };
}

/** A page's editable content as clients see it: the profile's fields and the blocks (also of a past version). */
export function presentContent(p: Profile, blocks: Block[]) {
  return {
    displayName: p.displayName,
    bio: p.bio,
    avatar: p.avatar,
    avatarFocus: p.avatarFocus,
    templateId: p.templateId,
    layout: p.layout,
    headerAlign: p.headerAlign,
    pageLocale: p.pageLocale,
    utm: p.utm,
    adult: p.adult,
    branding: p.branding,
    theme: {
      accent: p.theme.accent,
      scheme: p.theme.scheme,
      backgroundImage: p.theme.backgroundImage,
      backgroundFocus: p.theme.backgroundFocus,
      overlay: p.theme.overlay,
    },
    blocks,
  };
}

/** The short form listed by GET /api/agent/me. */
export function presentPageSummary(config: Services['config'], row: Page, states: PageStates) {
  return {
    ...pageHead(config, row, states),
    templateId: row.profile.templateId,
    blockCount: row.blocks.length,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The answer of POST /api/agent/pages and the create_page tool. */
export function presentCreatedPage(config: Services['config'], c: CreatedAgentPage, states: PageStates) {
  return {
    account: c.account,
    page: presentPage(config, c.page, states),
    ...(c.apiKey !== undefined && { apiKey: c.apiKey }),
    ...(c.claim !== undefined && { claimUrl: c.claim.claimUrl, claimExpiresAt: c.claim.expiresAt }),
  };
}
