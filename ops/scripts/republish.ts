/**
 * `npm run republish`: renders again every published page whose template or site addresses
 * (PAGE_DOMAIN, BASE_URL, PORT, MEDIA_URL) changed since it was published, with a progress bar
 * and a summary. `npm run republish -- --all`: publishes every page again whatever it was
 * rendered with, route tables included (after files were lost from storage, or a renderer
 * change the version does not cover). Uses the service's configuration, so run it with the environment the service
 * runs with. With the embedded database (PGlite) stop the service first: only one process can
 * open it.
 */

import { republishEveryPage, republishStalePages } from '../../core/commands/republish.js';
import { startTool } from '../start/tool.js';

const args = process.argv.slice(2);
if (args.some((a) => a !== '--all')) {
  process.stderr.write('usage: npm run republish [-- --all]\n');
  process.exit(2);
}

const tool = await startTool();
const services = tool.services;

const WIDTH = 30;
const tty = process.stderr.isTTY;
let lastLine = 0;
function progress(done: number, total: number) {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * WIDTH);
  const line = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} pages`;
  if (tty) process.stderr.write(`\r${line}`);
  else if (Date.now() - lastLine > 2000 || done === total) {
    lastLine = Date.now();
    process.stderr.write(`${line}\n`);
  }
}

const { config } = services;
// The addresses come from this command's environment, not the service's: say which they are.
process.stderr.write(
  `Rendering with pages at ${config.pageScheme}//<name>.${config.pageDomain}/ and images at ${config.mediaUrl}/ (from this environment).\n`,
);

if (args.includes('--all')) {
  const all = await republishEveryPage(services, progress);
  if (tty && all.total > 0) process.stderr.write('\n');
  await tool.stop();
  process.stdout.write(
    `Published ${all.published} of ${all.total} pages again in ${(all.ms / 1000).toFixed(1)} s` +
      (all.failed > 0 ? `; ${all.failed} failed and wait in the outbox for the worker's retries.\n` : '.\n'),
  );
  process.exit(all.failed > 0 ? 1 : 0);
}

// The service is stopped (or serves from elsewhere): every core can render.
const result = await republishStalePages(services, { onProgress: progress, alone: true });
if (tty && result.republished + result.copied > 0) process.stderr.write('\n');
await tool.stop();
const seconds = result.ms / 1000;
const copies = result.copied > 0 ? `; their compressed copies made after, ${result.copied} pages` : '';
process.stdout.write(
  result.republished + result.copied === 0
    ? 'Every published page is up to date with its template and the site addresses.\n'
    : `Republished ${result.republished} pages in ${seconds.toFixed(1)} s (${Math.round(result.republished / seconds)} pages/s)${copies}.\n`,
);
