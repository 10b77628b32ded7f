/**
 * Republishing 10,000 pages after a template change on the embedded default, in the API's
 * own process: pages per second, and the API's p99 latency while it runs next to its p99 at
 * rest, under a steady 200 requests/s (autocannon from this process, the server in its own).
 */
import autocannon from 'autocannon';
import { start, stop } from './processes.js';

/** Requests per second the API serves meanwhile: a steady, busy day, not a flood. */
export const API_RATE = 200;

interface Load {
  p99: number;
  p50: number;
  requests: number;
}

/** Loads GET /api/profiles/{id} with a key until `until` settles (or for `seconds`). */
function loadApi(port: number, key: string, pageId: string, o: { seconds?: number; until?: Promise<unknown> }) {
  return new Promise<Load>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}/api/profiles/${pageId}`,
        headers: { authorization: `Bearer ${key}` },
        connections: 4,
        overallRate: API_RATE,
        duration: o.seconds ?? 600,
      },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx > 0) return reject(new Error(`${result.non2xx} API answers were not 2xx`));
        resolve({ p99: result.latency.p99, p50: result.latency.p50, requests: result.requests.total });
      },
    );
    o.until?.finally(() => instance.stop());
  });
}

export async function republishBench() {
  const server = await start('republish');
  try {
    const keyLine = server.output.find((l) => l.startsWith('key '));
    if (!keyLine) throw new Error('the republish server printed no key');
    const [, key, pageId] = keyLine.split(' ');
    await loadApi(server.port, key, pageId, { seconds: 2 }); // warm-up, not counted
    const rest = await loadApi(server.port, key, pageId, { seconds: 5 });
    const job = fetch(`http://127.0.0.1:${server.port}/__bench/republish`).then(
      async (r) => JSON.parse(await r.text()) as { republished: number; ms: number },
    );
    const during = await loadApi(server.port, key, pageId, { until: job });
    const result = await job;
    return { pages: result.republished, pagesPerSecond: result.republished / (result.ms / 1000), rest, during };
  } finally {
    await stop(server);
  }
}
