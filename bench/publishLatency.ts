/**
 * Time from sending a PATCH to the new HTML being served on the page host, on the embedded
 * default (PGlite + folder, one process), as a user of `npm start` has it: edits of the bio
 * (the share card is drawn again after each) or of a link's label (nothing to draw), from
 * once the new page is settled.
 */

import { call, closeConnections } from './call.js';
import { embeddedApp, served, twentyLinks } from './embedded.js';
import { percentile } from './stats.js';

/** Edits sent before the timed ones, on the same page. */
const WARM_UP = 20;

export async function publishLatency(iterations = 300, kind: 'bio' | 'link' = 'bio') {
  const app = await embeddedApp({ onDisk: true });
  const { handler } = app;
  const { server, port } = await served(handler);
  const json = { 'content-type': 'application/json' };

  const blocks = twentyLinks();
  const created = JSON.parse(
    (await call(port, 'POST', '/api/agent/pages', json, JSON.stringify({ username: 'latency', page: { blocks } })))
      .text,
  );
  const stored = created.page.blocks as { label: string }[];
  // Timed from a settled page, as its owner finds it in the editor: the new page's pictures
  // drawn, its share card named (a tree that draws them within the create has it at once).
  // Edits made while a process draws its first card measure sharp's start, not the edit path.
  for (const until = Date.now() + 30_000; ; ) {
    const page = await call(port, 'GET', '/', { host: 'latency.pages.test' });
    if (page.text.includes('property="og:image"')) break;
    if (Date.now() > until) throw new Error('the new page named no share card within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const auth = { ...json, authorization: `Bearer ${created.apiKey}` };
  const times: number[] = [];
  // The first edits of a process run code not yet compiled by V8's optimizing tiers: WARM_UP
  // edits, untimed, first, so that p99 measures the edit path rather than the process's start.
  for (let i = -WARM_UP; i < iterations; i++) {
    const marker = kind === 'bio' ? `Bio number ${i}` : `Link label ${i}`;
    const change =
      kind === 'bio' ? { bio: marker } : { blocks: stored.map((b, j) => (j === 0 ? { ...b, label: marker } : b)) };
    const t0 = performance.now();
    const patched = await call(port, 'PATCH', `/api/profiles/${created.page.id}`, auth, JSON.stringify(change));
    if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
    for (;;) {
      const page = await call(port, 'GET', '/', { host: 'latency.pages.test' });
      if (page.text.includes(marker)) break;
    }
    if (i >= 0) times.push(performance.now() - t0);
  }
  server.close();
  closeConnections();
  await app.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99), iterations };
}
