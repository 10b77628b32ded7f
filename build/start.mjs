/**
 * `npm start` and the command-line tools: runs a compiled entry point of dist/ (main.js unless
 * another is named: `node build/start.mjs scripts/moderate.js ban x`), building dist/ first when
 * it is missing or older than the sources, so a fresh clone needs no separate build step.
 *
 * The entry runs in this very process: the process npm starts is the service, and a SIGTERM or
 * SIGINT sent to it (package.json starts it with `exec`) is the service's to handle.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, DIST, staleReason } from './build.mjs';

const reason = staleReason();
if (reason) {
  process.stderr.write(`Building dist/ (${reason})…\n`);
  try {
    const { ms } = await build();
    process.stderr.write(`Built in ${ms} ms.\n`);
  } catch (err) {
    // A read-only install (a hardened service unit) cannot build: it must be built beforehand.
    process.stderr.write(
      `Cannot start: dist/ could not be built (${err.message.split('\n')[0]}); run npm run build first.\n`,
    );
    process.exit(1);
  }
}

const entry = process.argv[2]?.endsWith('.js') ? process.argv.splice(2, 1)[0] : 'main.js';
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(DIST, entry)).href);
