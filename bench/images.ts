/**
 * Images: how long a 12-megapixel photo takes to become an avatar, and whether uploading large
 * backgrounds one after another keeps the process's memory bounded.
 */
import sharp from 'sharp';
import { processImage } from '../platform/media/pipeline.js';
import { start, stop } from './processes.js';

/** A photo-like JPEG: noise keeps it as large as a real photo of the same size. */
function photo(width: number, height: number, quality: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality })
    .toBuffer();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * A 12 MP (4000 × 3000) JPEG to avatar AVIF, against sharp alone resizing it to a JPEG (a short
 * run: a 3 MP photo, the same code).
 */
export async function imageTime(runs = 7, [width, height] = [4000, 3000]) {
  const input = await photo(width, height, 90);
  const avatar: number[] = [];
  const jpeg: number[] = [];
  await processImage(input, 'avatar'); // warm-up
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await processImage(input, 'avatar');
    avatar.push(performance.now() - t);
    t = performance.now();
    await sharp(input).rotate().resize(800, 800, { fit: 'inside' }).jpeg().toBuffer();
    jpeg.push(performance.now() - t);
  }
  return { width, height, bytes: input.length, runs, avatarMs: median(avatar), jpegMs: median(jpeg) };
}

/** The memory bound this benchmark holds the app to: growth after the first upload. */
const MEMORY_GROWTH_BOUND = 100 * 1024 * 1024;

/**
 * The whole app in its own process (with `env`, e.g. the MALLOC_ARENA_MAX that `npm start`
 * sets); ten backgrounds of just under 30 MB uploaded through
 * multipart one after another; its resident memory read (after a GC) before and after each.
 */
export async function imageMemory(env: NodeJS.ProcessEnv, count = 10, [width, height] = [6000, 4500]) {
  const file = await photo(width, height, 97);
  if (file.length > 30 * 1024 * 1024) throw new Error(`bench photo is ${file.length} bytes, over the 30 MB limit`);
  const app = await start('app', env);
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const rss = async () => Number(await (await fetch(`${base}/__bench/rss`)).text());
    const created = await fetch(`${base}/api/agent/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'memory-bench' }),
    });
    const { apiKey } = (await created.json()) as { apiKey: string };
    const samples = [await rss()];
    for (let i = 0; i < count; i++) {
      const form = new FormData();
      form.append('kind', 'background');
      form.append('file', new Blob([new Uint8Array(file)]), 'photo.jpg');
      const res = await fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload ${i + 1}: ${res.status} ${await res.text()}`);
      samples.push(await rss());
    }
    return {
      fileBytes: file.length,
      rss: samples,
      growth: Math.max(...samples.slice(1)) - samples[1],
      bound: MEMORY_GROWTH_BOUND,
    };
  } finally {
    await stop(app);
  }
}
