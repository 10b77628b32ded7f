/**
 * A CDN that keeps the purges it is sent, and refuses them while `failing` is set: for tests of
 * when the service purges. (The adapters themselves are tested against local HTTP servers in
 * test/cdn/adapters.test.ts, and Varnish for real in test/cdn/varnish.test.ts.)
 */
import type { Cdn, CdnKind } from '../../platform/cdn/cdn.js';

export interface RecordingCdn extends Cdn {
  /** Each purge taken, as the keys it carried. */
  purges: string[][];
  failing: boolean;
  /** Purges refused while `failing` was set. */
  refused: number;
  /** Every key purged so far, in order. */
  keys(): string[];
}

export function recordingCdn(kind: Exclude<CdnKind, 'none'> = 'varnish'): RecordingCdn {
  const cdn: RecordingCdn = {
    kind,
    purges: [],
    failing: false,
    refused: 0,
    async purge(keys) {
      if (cdn.failing) {
        cdn.refused++;
        throw new Error('CDN test double: purge refused (503)');
      }
      if (keys.length > 0) cdn.purges.push([...keys]);
    },
    keys: () => cdn.purges.flat(),
  };
  return cdn;
}
