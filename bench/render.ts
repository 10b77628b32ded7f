/** Render throughput: HTML + Markdown of a 20-block page, per template, on one core. */
import { TEMPLATE_IDS } from '../api/schemas/fields.js';
import { renderPage } from '../renderer/render.js';
import { twentyBlockPage } from '../renderer/sample.js';

export function renderThroughput(durationMs = 1500) {
  const urls = { page: 'https://ada.pages.example/', media: 'https://media.example' };
  const now = new Date();
  const perTemplate: Record<string, number> = {};
  for (const id of TEMPLATE_IDS) {
    const page = twentyBlockPage(id);
    for (let i = 0; i < 500; i++) renderPage({ page, now, urls });
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < durationMs) {
      for (let i = 0; i < 100; i++) renderPage({ page, now, urls });
      n += 100;
    }
    perTemplate[id] = n / ((performance.now() - t0) / 1000);
  }
  const rates = Object.values(perTemplate);
  return { perTemplate, min: Math.min(...rates), mean: rates.reduce((a, b) => a + b, 0) / rates.length };
}
