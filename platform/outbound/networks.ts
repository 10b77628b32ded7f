/**
 * The social networks a profile can be imported from: where each one's public profile lives,
 * what its handles look like, and how it is read (a public JSON API, or the Open Graph tags
 * of the profile page). `IMPORT_BASE_URLS` replaces a base URL (tests point them at local
 * servers; an operator can point one at a mirror).
 */

export interface Network {
  /** Origin (and path prefix) of the profile pages or API, without a trailing slash. */
  base: string;
  reader: 'github' | 'bluesky' | 'opengraph';
  /** Path of a handle's profile under `base` (Open Graph readers). */
  path?: (handle: string) => string;
  handle: RegExp;
  /** What a handle on this network looks like, for the error hint. */
  handleHint: string;
}

const dotted = /^(?=.{3,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const NETWORKS = {
  github: {
    base: 'https://api.github.com',
    reader: 'github',
    handle: /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/,
    handleHint: 'GitHub user names have 1-39 letters, digits and single inner hyphens.',
  },
  bluesky: {
    base: 'https://public.api.bsky.app',
    reader: 'bluesky',
    handle: dotted,
    handleHint: 'Bluesky handles are domain names, like alice.bsky.social.',
  },
  instagram: {
    base: 'https://www.instagram.com',
    reader: 'opengraph',
    path: (h) => `/${h}/`,
    handle: /^[A-Za-z0-9._]{1,30}$/,
    handleHint: 'Instagram handles have 1-30 letters, digits, dots and underscores.',
  },
  threads: {
    base: 'https://www.threads.net',
    reader: 'opengraph',
    path: (h) => `/@${h}`,
    handle: /^[A-Za-z0-9._]{1,30}$/,
    handleHint: 'Threads handles have 1-30 letters, digits, dots and underscores.',
  },
  tiktok: {
    base: 'https://www.tiktok.com',
    reader: 'opengraph',
    path: (h) => `/@${h}`,
    handle: /^[A-Za-z0-9._]{2,24}$/,
    handleHint: 'TikTok handles have 2-24 letters, digits, dots and underscores.',
  },
  youtube: {
    base: 'https://www.youtube.com',
    reader: 'opengraph',
    path: (h) => `/@${h}`,
    handle: /^[A-Za-z0-9._-]{3,30}$/,
    handleHint: 'YouTube handles have 3-30 letters, digits, dots, hyphens and underscores.',
  },
  x: {
    base: 'https://x.com',
    reader: 'opengraph',
    path: (h) => `/${h}`,
    handle: /^[A-Za-z0-9_]{1,15}$/,
    handleHint: 'X handles have 1-15 letters, digits and underscores.',
  },
  twitch: {
    base: 'https://www.twitch.tv',
    reader: 'opengraph',
    path: (h) => `/${h}`,
    handle: /^[A-Za-z0-9_]{3,25}$/,
    handleHint: 'Twitch names have 3-25 letters, digits and underscores.',
  },
  soundcloud: {
    base: 'https://soundcloud.com',
    reader: 'opengraph',
    path: (h) => `/${h}`,
    handle: /^[A-Za-z0-9_-]{3,25}$/,
    handleHint: 'SoundCloud names have 3-25 letters, digits, hyphens and underscores.',
  },
} as const satisfies Record<string, Network>;

export type NetworkName = keyof typeof NETWORKS;

export const NETWORK_NAMES = Object.keys(NETWORKS) as NetworkName[];

export function isNetworkName(s: string): s is NetworkName {
  return Object.hasOwn(NETWORKS, s);
}
