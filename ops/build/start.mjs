/**
 * `npm start` and the command-line tools: runs a compiled entry point of dist/ (main.js unless
 * another is named: `node ops/build/start.mjs ops/scripts/moderate.js ban x`), building dist/ first when
 * it is missing or older than the sources, so a fresh clone needs no separate build step.
 *
 * The entry runs in this very process: the process npm starts is the service, and a SIGTERM or
 * SIGINT sent to it (package.json starts it with `exec`) is the service's to handle.
 *
 * A tool (any entry but main.js: `npm run republish`, `npm run ban`, `npm run doctor`) first
 * reads the environment file the systemd units read, /etc/linkpage/linkpage.env (or the file
 * LINKPAGE_ENV_FILE names; empty: none), when it exists: run on the service's machine it has the
 * service's settings. A variable already set in the shell wins over the file. The service itself
 * gets its settings from its unit (or the shell), never from here.
 *
 * A tool's stack traces name the TypeScript sources (source maps on). The service's do not,
 * unless NODE_OPTIONS=--enable-source-maps asks for it: with source maps on, Node reads and keeps
 * the map of every module it loads, ours and the dependencies' (5 MB of JSON, ~6 MB more heap
 * and ~10 MB more resident for the process's life; bench/README.md), and dist/ is one
 * unminified file per source file, so its line numbers are readable as they are.
 */
import { existsSync } from 'node:fs';
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
if (entry !== 'main.js') {
  const file = process.env.LINKPAGE_ENV_FILE ?? '/etc/linkpage/linkpage.env';
  if (file && existsSync(file)) {
    try {
      process.loadEnvFile(file);
    } catch (err) {
      process.stderr.write(
        `Cannot run: ${file} could not be read (${err.code ?? err.message}): run as the service's user or root, or set LINKPAGE_ENV_FILE.\n`,
      );
      process.exit(1);
    }
    process.stderr.write(`Settings from ${file} (variables set in this shell take precedence).\n`);
  }
}
if (entry !== 'main.js') process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(DIST, entry)).href);
