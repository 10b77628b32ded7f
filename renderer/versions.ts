/**
 * The render version of a page: what its published files depend on besides the page itself.
 * It joins the content hash of the page's template (render.ts `templateVersions`) and a hash of
 * the site addresses the files contain, so a deploy that changes a template and a restart with
 * another PAGE_DOMAIN, BASE_URL, PORT or MEDIA_URL both leave the pages published before out
 * of date. The publisher records it on each page it publishes (`Page.renderVersion`, whose
 * column in platform/store/pages.ts keeps its first name); the republish job renders again
 * every published page whose recorded version is not the current one for its template.
 */
import { createHash } from 'node:crypto';
import type { Branding } from '../core/rules/branding.js';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { templateVersions } from './render.js';

/**
 * The configuration a page's files are rendered with, and so part of their version: the page's
 * address `<pageScheme>//<name>.<pageDomain>/` (its canonical link, og:url, JSON-LD, the
 * Markdown link and the tap pings start with it), MEDIA_URL (avatar, background and link
 * images), BASE_URL (the footer's link to the home page) and BRANDING (whether the footer
 * and the share card's mark are there). PORT reaches the files only through these.
 */
const SITE_FIELDS = [
  'pageScheme',
  'pageDomain',
  'mediaUrl',
  'baseUrl',
  'branding',
] as const satisfies readonly (keyof SiteUrls)[];

/** The site settings a page is rendered with (the configuration's fields of those names). */
export type SiteUrls = {
  pageScheme: string;
  pageDomain: string;
  mediaUrl: string;
  baseUrl: string;
  branding: Branding;
};

/** The site addresses alone, out of a whole configuration (plain data, for a worker thread). */
export function siteUrls(from: SiteUrls): SiteUrls {
  return Object.fromEntries(SITE_FIELDS.map((field) => [field, from[field]])) as SiteUrls;
}

/** A hash of every field of SiteUrls (and nothing else of the configuration). */
function siteVersion(site: SiteUrls): string {
  // The default branding adds nothing: the pages of a site that never set it keep their version.
  const values = SITE_FIELDS.filter((field) => field !== 'branding' || site.branding !== 'always').map(
    (field) => site[field],
  );
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
}

/**
 * The current render version of each template on this site: `<template hash>.<site hash>`,
 * so the stored value shows which of the two a page was rendered with.
 */
export function renderVersions(site: SiteUrls): Record<TemplateId, string> {
  const ofSite = siteVersion(site);
  const versions = {} as Record<TemplateId, string>;
  for (const id of TEMPLATE_IDS) versions[id] = `${templateVersions[id]}.${ofSite}`;
  return versions;
}
