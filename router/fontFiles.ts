/**
 * The self-hosted font files (renderer/fonts.ts) on every page host, at `/_/fonts/<name>`: the
 * same bytes for every page, named by their hash, so browsers and the CDN keep them a year.
 */
import { createHash } from 'node:crypto';
import type { StoredObject } from '../platform/store/objects.js';
import { FONT_PATH, fontFile } from '../renderer/fonts.js';

const answers = new Map<string, StoredObject>();

/** The answer for a path under /_/fonts/, or null when no such font is served (a 404). */
export function fontAnswer(path: string): StoredObject | null {
  const name = path.slice(FONT_PATH.length);
  const known = answers.get(name);
  if (known) return known;
  const body = fontFile(name);
  if (!body) return null;
  const answer: StoredObject = {
    body,
    contentType: 'font/woff2',
    cacheControl: 'public, max-age=31536000, immutable',
    etag: `"${createHash('md5').update(body).digest('hex')}"`,
  };
  answers.set(name, answer);
  return answer;
}

export { FONT_PATH };
