/**
 * A key-authenticated read, `GET /api/profiles/{id}` of a 20-block page, on the embedded default
 * as `npm start` runs it: the process's CPU a request (the client's share alike on both sides of
 * a `compare`) and requests a second, one at a time.
 */
import { call, closeConnections } from './call.js';
import { embeddedApp, served, twentyLinks } from './embedded.js';

export async function keyRead(requests = 2_000) {
  const app = await embeddedApp({ onDisk: true });
  const { server, port } = await served(app.handler);
  const json = { 'content-type': 'application/json' };
  const blocks = twentyLinks();
  const created = JSON.parse(
    (await call(port, 'POST', '/api/agent/pages', json, JSON.stringify({ username: 'reads', page: { blocks } }))).text,
  );
  const auth = { authorization: `Bearer ${created.apiKey}` };
  const path = `/api/profiles/${created.page.id}`;
  const read = async () => {
    const res = await call(port, 'GET', path, auth);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  };
  // Warmed up first: the figures are of the read, not of the process's first requests.
  for (let i = 0; i < Math.min(500, requests); i++) await read();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) await read();
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  server.close();
  closeConnections();
  await app.close();
  return { requests, cpuMs: (used.user + used.system) / 1000 / requests, perSecond: requests / seconds };
}
