/**
 * Importing a public social profile: display name, bio and photo for a handle. GitHub and
 * Bluesky are read through their public JSON APIs; the other networks through the Open Graph
 * tags of the public profile page. The photo goes through the upload pipeline and comes back
 * as the account's own storage key, ready for `avatar`.
 */

import * as v from 'valibot';
import type { Fetched } from '../../platform/outbound/fetcher.js';
import { isNetworkName, NETWORKS, type Network, type NetworkName } from '../../platform/outbound/networks.js';
import { cleanLine, cleanText } from '../../platform/outbound/text.js';
import { AppError } from '../errors.js';
import { ImportProfileRequest } from '../schemas/imports.js';
import type { Services } from '../services.js';
import { storeImageFromUrl } from './images.js';

export interface ImportedProfile {
  network: NetworkName;
  handle: string;
  displayName: string | null;
  bio: string | null;
  /** Storage key of the photo (kind avatar), or null when the profile has none. */
  avatar: string | null;
}

/** What a reader finds before the photo is stored. */
interface Found {
  displayName: string | null;
  bio: string | null;
  photoUrl: string | null;
}

/** Page field limits, so the result can be sent back as is. */
const NAME_MAX = 60;
const BIO_MAX = 300;
const PROFILE_MAX_BYTES = 2 * 1024 * 1024;

function unknownNetwork(network: string): AppError {
  return new AppError('not_found', {
    detail: network,
    hint: `Profiles can be imported from ${Object.keys(NETWORKS).join(', ')}.`,
  });
}

/**
 * Whether the request body holds a handle `network` can have (what importProfile accepts):
 * only such requests use the daily quota.
 */
export function importableHandle(network: string, body: unknown): boolean {
  if (!isNetworkName(network) || !v.is(ImportProfileRequest, body)) return false;
  return NETWORKS[network].handle.test(cleanHandle(body.handle));
}

function cleanHandle(raw: string): string {
  return raw.trim().replace(/^@/, '');
}

/** Reads the profile of `handle` on `network` and stores its photo for the account. */
export async function importProfile(
  s: Services,
  accountId: string,
  network: string,
  rawHandle: string,
): Promise<ImportedProfile> {
  if (!isNetworkName(network)) throw unknownNetwork(network);
  const spec: Network = NETWORKS[network];
  const handle = cleanHandle(rawHandle);
  if (!spec.handle.test(handle)) {
    throw new AppError('invalid_fields', { field: 'handle', detail: 'handle', hint: spec.handleHint });
  }
  const base = s.config.importBaseUrls[network] ?? spec.base;
  const found = await READERS[spec.reader](s, base, handle, spec, network);
  const avatar = found.photoUrl
    ? (await storeImageFromUrl(s, accountId, 'avatar', found.photoUrl, 'handle')).key
    : null;
  return { network, handle, displayName: found.displayName, bio: found.bio, avatar };
}

type Reader = (s: Services, base: string, handle: string, spec: Network, network: NetworkName) => Promise<Found>;

const READERS: Record<Network['reader'], Reader> = {
  async github(s, base, handle, _spec, network) {
    const res = await get(s, `${base}/users/${encodeURIComponent(handle)}`, 'application/vnd.github+json');
    if (res.status === 404) throw noProfile(network, handle);
    const data = json(res, network);
    return {
      displayName: line(data.name) ?? line(data.login),
      bio: paragraph(data.bio),
      photoUrl: typeof data.avatar_url === 'string' ? data.avatar_url : null,
    };
  },

  async bluesky(s, base, handle, _spec, network) {
    const url = `${base}/xrpc/app.bsky.actor.getProfile?actor=${encodeURIComponent(handle.toLowerCase())}`;
    const res = await get(s, url, 'application/json');
    if (res.status === 400 || res.status === 404) throw noProfile(network, handle);
    const data = json(res, network);
    return {
      displayName: line(data.displayName) ?? line(data.handle),
      bio: paragraph(data.description),
      photoUrl: typeof data.avatar === 'string' ? data.avatar : null,
    };
  },

  async opengraph(s, base, handle, spec, network) {
    const res = await get(s, `${base}${spec.path?.(handle) ?? `/${handle}`}`, 'text/html');
    if (res.status === 404 || res.status === 410) throw noProfile(network, handle);
    // Loaded on first use: an HTML parser a process may never need costs its start-up time.
    const { load } = await import('cheerio');
    const $ = load(res.body.toString('utf8'));
    const meta = (name: string) =>
      $(`meta[property="${name}"], meta[name="${name}"]`).first().attr('content')?.trim() || null;
    const title = meta('og:title') ?? meta('twitter:title') ?? ($('title').first().text().trim() || null);
    const image = meta('og:image') ?? meta('twitter:image');
    if (!title && !image) throw noProfile(network, handle);
    return {
      displayName: line(title === null ? null : stripNetworkSuffix(title)),
      bio: paragraph(meta('og:description') ?? meta('description')),
      photoUrl: image ? new URL(image, res.url).toString() : null,
    };
  },
};

async function get(s: Services, url: string, accept: string): Promise<Fetched> {
  const res = await s.fetcher.fetchPublic(url, 'handle', {
    maxBytes: PROFILE_MAX_BYTES,
    accept,
    clientErrors: true,
  });
  if (res.status >= 400 && res.status !== 404 && res.status !== 400 && res.status !== 410) {
    throw new AppError('unreachable', {
      field: 'handle',
      detail: `${new URL(url).hostname} answered ${res.status}`,
      hint: 'The network did not give the profile (it may be limiting requests): try again later.',
    });
  }
  return res;
}

function json(res: Fetched, network: string): Record<string, unknown> {
  try {
    const data = JSON.parse(res.body.toString('utf8'));
    if (data && typeof data === 'object' && !Array.isArray(data)) return data;
  } catch {
    // fall through
  }
  throw new AppError('unreachable', {
    field: 'handle',
    detail: network,
    hint: 'The network answered something other than a profile.',
  });
}

function noProfile(network: string, handle: string): AppError {
  return new AppError('not_found', {
    field: 'handle',
    detail: `${network}: ${handle}`,
    hint: 'No public profile has this handle on this network.',
  });
}

/** "Ada (@ada) • Instagram photos and videos" → "Ada"; "Ada - YouTube" → "Ada". */
function stripNetworkSuffix(title: string): string {
  return title
    .replace(/\s*\(@[^)]*\).*$/, '')
    .replace(/\s+(?:[•|·]|-\s+(?=YouTube|SoundCloud|Twitch))\s*.*$/, '')
    .replace(/\s+on (?:X|Twitter|TikTok|Threads|Twitch)$/, '')
    .trim();
}

function line(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? cleanLine(value, NAME_MAX) || null : null;
}

function paragraph(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? cleanText(value, BIO_MAX) || null : null;
}
