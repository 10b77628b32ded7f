/** The shape settings that list several entries share (read in core/config.ts and core/configDomains.ts). */
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
