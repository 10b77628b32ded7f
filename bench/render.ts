/**
 * Render throughput: HTML + Markdown of a 20-block page, per template, on one core. The
 * templates take turns in short slices over several rounds and each template's median round
 * counts, so a slow moment of this shared machine does not land on one template alone.
 */
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { renderPage } from '../renderer/render.js';
import { twentyBlockPage } from '../renderer/sample.js';
import { median } from './stats.js';

export function renderThroughput(rounds = 9, sliceMs = 150) {
  const urls = { page: 'https://ada.pages.example/', media: 'https://media.example' };
  const now = new Date();
  const pages = TEMPLATE_IDS.map((id) => twentyBlockPage(id));
  for (const page of pages) for (let i = 0; i < 500; i++) renderPage({ page, now, urls });
  const rates: number[][] = pages.map(() => []);
  for (let round = 0; round < rounds; round++) {
    pages.forEach((page, t) => {
      let n = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < sliceMs) {
        for (let i = 0; i < 50; i++) renderPage({ page, now, urls });
        n += 50;
      }
      rates[t].push(n / ((performance.now() - t0) / 1000));
    });
  }
  const perTemplate = Object.fromEntries(TEMPLATE_IDS.map((id, t) => [id, median(rates[t])]));
  const medians = Object.values(perTemplate);
  return {
    perTemplate,
    min: Math.min(...medians),
    mean: medians.reduce((a, b) => a + b, 0) / medians.length,
  };
}
