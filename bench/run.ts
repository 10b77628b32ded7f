/**
 * `npm run bench`: measures side by side in one run and prints ratios (this machine is noisy;
 * absolute numbers drift, ratios much less). Targets come from the issues.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { publishLatency } from './publishLatency.js';
import { renderThroughput } from './render.js';

interface Started {
  child: ChildProcess;
  port: number;
  output: string[];
}

function start(kind: string): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts', kind], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const m = /^ready (\d+)$/.exec(line);
        if (m) resolve({ child, port: Number(m[1]), output });
      }
    });
    child.on('exit', (code) => reject(new Error(`${kind} exited with ${code}`)));
  });
}

async function stop(s: Started): Promise<string[]> {
  await new Promise<void>((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.on('exit', () => resolve());
    s.child.kill('SIGTERM');
  });
  return s.output;
}

async function load(port: number, host: string, path: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { host },
    connections: 50,
    pipelining: 1,
    duration: seconds,
  });
  if (result.non2xx !== result.requests.total && result['3xx'] !== result.requests.total) {
    throw new Error(
      `unexpected answers: ${JSON.stringify({ '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'] })}`,
    );
  }
  return result.requests.average;
}

async function redirects(rounds = 3, seconds = 5) {
  const bare = await start('bare-redirect');
  const router = await start('router');
  const ratios: number[] = [];
  let bareRps = 0;
  let routerRps = 0;
  // Alternate the two so that drift in the machine's speed hits both alike.
  for (let i = 0; i < rounds; i++) {
    const b = await load(bare.port, 'apex.test', '/sale', seconds);
    const r = await load(router.port, 'bench.pages.test', '/sale', seconds);
    bareRps += b / rounds;
    routerRps += r / rounds;
    ratios.push(r / b);
  }
  await stop(bare);
  const counted = (await stop(router)).find((l) => l.startsWith('counted'));
  console.log(
    `short-path redirects: router ${routerRps.toFixed(0)} req/s, bare node:http 302 ${bareRps.toFixed(0)} req/s, ratio ${(routerRps / bareRps).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= 0.70; ${counted} taps)`,
  );
}

async function latency() {
  const r = await publishLatency();
  console.log(
    `accepted PATCH -> new HTML served (embedded default): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms over ${r.iterations} edits (target p99 < 20 ms)`,
  );
}

function render() {
  const r = renderThroughput();
  const each = Object.entries(r.perTemplate)
    .map(([id, n]) => `${id} ${Math.round(n)}`)
    .join(', ');
  console.log(
    `render HTML + Markdown, 20-block page, one core: mean ${Math.round(r.mean)}/s, slowest template ${Math.round(r.min)}/s (target >= 20000/s) [${each}]`,
  );
}

const only = process.argv[2];
if (!only || only === 'render') render();
if (!only || only === 'redirects') await redirects();
if (!only || only === 'publish') await latency();
