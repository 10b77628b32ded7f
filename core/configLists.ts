/**
 * What the parts of the configuration share (core/config.ts, configDomains.ts, configCdn.ts):
 * the shapes of settings that list several entries or name a base URL, and the error a setting
 * that cannot work throws.
 */
import * as v from 'valibot';

/** A setting of comma-separated entries, each trimmed, empty ones dropped: `a, b,` is `['a', 'b']`. */
export const commaList = v.pipe(
  v.string(),
  v.transform((s: string) =>
    s
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  ),
);

/** An http(s) base URL without query or fragment, its trailing slashes dropped. */
export const httpBase = v.pipe(
  v.string(),
  v.check((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without query or fragment'),
  v.transform((s) => s.replace(/\/+$/, '')),
);

/** A setting that cannot work: its message is one line naming the variable. */
export class ConfigError extends Error {}
