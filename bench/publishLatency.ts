/**
 * Time from sending a PATCH to the new HTML being served on the page host, on the embedded
 * default (PGlite + folder, one process), as a user of `npm start` has it: edits of the bio
 * (the share card is drawn again after each) or of a link's label (nothing to draw).
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, closeConnections } from './call.js';
import { embeddedApp } from './embedded.js';
import { percentile } from './stats.js';

export async function publishLatency(iterations = 300, kind: 'bio' | 'link' = 'bio') {
  const app = await embeddedApp({ onDisk: true });
  const { handler } = app;
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const json = { 'content-type': 'application/json' };

  const blocks = Array.from({ length: 20 }, (_, i) => ({
    type: 'link',
    label: `Link ${i + 1}`,
    url: `https://example.com/${i}`,
  }));
  const created = JSON.parse(
    (await call(port, 'POST', '/api/agent/pages', json, JSON.stringify({ username: 'latency', page: { blocks } })))
      .text,
  );
  const stored = created.page.blocks as { label: string }[];
  const auth = { ...json, authorization: `Bearer ${created.apiKey}` };
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
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
    times.push(performance.now() - t0);
  }
  server.close();
  closeConnections();
  await app.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99), iterations };
}
