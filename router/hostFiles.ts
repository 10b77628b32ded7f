/**
 * A page host's small files besides the page: its icons (`/favicon.ico` too, which browsers
 * ask for on their own), its link-preview picture (`/og/<hash>.png`) and `/llms.txt`, each
 * stored beside the page at publish, and the same robots.txt and template fonts (fontFiles.ts)
 * for every page host. An icon not
 * stored (a page published before icons were made, or a name with no page) is answered with a
 * neutral one, never a 404.
 */
import { createHash } from 'node:crypto';
import { ogImageKey, pageKeys } from '../store/layout.js';
import type { StoredObject } from '../store/objects.js';
import { FONT_PATH, fontAnswer } from './fontFiles.js';

/** A neutral 48 × 48 PNG: a light figure on slate grey. */
const NEUTRAL_ICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAMAAABg3Am1AAABHVBMVEVMaXFKVWJKVWNKVWIzZmZ/f39LVWNKVWJVVVVLVGJKVWJJVmJLVGNLVWRKU2RKVWFLVGNMVWNLVWNKU2NLVGJKVWJMVmJLVGNKVWNLVGNKVWNKVWJLVGJVVVVLVWNLVGJLVGPz9PZLVWPx8vTs7e+qsLdPWWfW2d1SXGlPWGaorbTs7fCvs7ry8/Xr7O7X2d7X2t3Hy9Cqr7bk5ulocHxQWmdpcX3Dx81RW2mssrlnb3zHys+wtLyssbiorrVncHtWX2yHjpjg4ubS1dnt7vBjbHmEipWOlZ2UmaLb3eBMVmTIzNB3fomus7pOWGWprrVNV2Wzt73e4ORSXGrc3+KAiJLt7/GZn6iSmKF4f4vf4eXq7O20ub9kbHnGys5kjsomAAAAIXRSTlMA16TbBQLY8wamjFP0VE9Wi1fdUtyJUFWniNre2QOKo/FONsxtAAAACXBIWXMAAAsTAAALEwEAmpwYAAABeUlEQVRIx63W127CMBQGYANhtWwodLd2BhvK3pvuvXff/zEKESRE9ZT6X0XJ+SQ7duIDwDyesNflQ5T4XN6gBxhZjyCOxKKL8r01xJmQUwfc9Qht6ONBAonP5hsTATseEEZCSYBNMWAH22LABdxiwA1wd+tqUVGK5SruGQbUrvNQj9zSeEDtEhopaRwgB1fSY4N6fhXIAyZQoSV9JjiygiQTKFZQYIKCFXz+/5DKVpBhgqpsea1t9sK1VoHKsdJax6z/SfNsPq23GJWsprl2K0KDflJRkpk25/amBwOGo9xkPJ2OJ7nRkAN8d7PmpLPdYwa4OM1aF+7l9Y4Gmg34J40mGTyWICadFBF8QWzuSeAZEnKCB6kKCVRSWHAGiXnDgfQHGTzcYMA7pOTKBMbP+JYGjA/vEOwuL89p4GlZZQNesc16AIJiwA8kh0h9ZNYOREVAYH5Qh/jrt/ROwLnP3Qg4F91GnGsejoDZzkgJu416nLptdr+kl/4C99gtGprKFbQAAAAASUVORK5CYII=',
  'base64',
);

const neutralIcon: StoredObject = {
  body: NEUTRAL_ICON,
  contentType: 'image/png',
  cacheControl: 'public, max-age=60, stale-while-revalidate=600',
  etag: `"${createHash('md5').update(NEUTRAL_ICON).digest('hex')}"`,
};

const OG_PATH = /^\/og\/[0-9a-f]{16}\.png$/;

const robots = fixed('User-agent: *\nAllow: /\n', 'text/plain; charset=utf-8', 'public, max-age=3600');

function fixed(body: string, contentType: string, cacheControl: string): StoredObject {
  const bytes = Buffer.from(body);
  return { body: bytes, contentType, cacheControl, etag: `"${createHash('md5').update(bytes).digest('hex')}"` };
}

/**
 * The stored key a path of a page host names (null: none, the same file for every page),
 * and what to answer when nothing is stored; null for any other path.
 */
export function hostFile(name: string, path: string): { key: string | null; fallback: StoredObject | null } | null {
  const keys = pageKeys(name);
  switch (path) {
    case '/robots.txt':
      return { key: null, fallback: robots };
    case '/favicon.ico':
    case '/favicon.png':
      return { key: keys.favicon, fallback: neutralIcon };
    case '/apple-touch-icon.png':
    case '/apple-touch-icon-precomposed.png':
      return { key: keys.touchIcon, fallback: neutralIcon };
    case '/llms.txt':
      return { key: keys.llms, fallback: null };
    default:
      if (path.startsWith(FONT_PATH)) return { key: null, fallback: fontAnswer(path) };
      // The link-preview picture, named by the hash of what it shows.
      return OG_PATH.test(path) ? { key: ogImageKey(name, path.slice(4, -4)), fallback: null } : null;
  }
}
