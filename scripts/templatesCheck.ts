/**
 * `npm run templates:check`: every template with the sample page and the edge pages through the
 * Nu Html Checker, axe-core in Chromium (zero violations, contrast included) and the wire-size
 * budget; full-page screenshots at 390 and 1280 px into .templates-check/ for review. Prints a
 * table and exits 1 with the reasons when any page fails.
 *
 *   npm run templates:check                      every template
 *   npm run templates:check -- aurora mono       some templates
 *   npm run templates:check -- --no-screenshots  skip the screenshots (CI)
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TemplateId } from '../core/schemas/fields.js';
import { WIDTHS } from './templatesCheckBrowser.js';
import { checkTemplates, type PageCheck, templateList } from './templatesCheckRun.js';

const SHOTS = path.resolve('.templates-check');

function table(rows: PageCheck[]): string {
  const head = ['template', 'page', 'html', 'gzip', 'brotli', 'budget', 'Nu', 'axe', 'requests', 'result'];
  const body = rows.map((r) => [
    r.template,
    r.page,
    String(r.size.html),
    String(r.size.gzip),
    String(r.size.br),
    String(r.size.budget),
    String(r.nu.length),
    String(r.axe.length),
    String(r.failedRequests.length),
    r.problems.length === 0 ? 'ok' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

const args = process.argv.slice(2);
const known = templateList();
const asked = args.filter((a) => !a.startsWith('--'));
const unknown = asked.filter((a) => !(known as string[]).includes(a));
if (unknown.length > 0) {
  process.stderr.write(`unknown template ${unknown.join(', ')}; the templates are ${known.join(', ')}\n`);
  process.exit(2);
}
const shots = args.includes('--no-screenshots') ? null : SHOTS;
if (shots) await rm(shots, { recursive: true, force: true });

const started = performance.now();
const rows = await checkTemplates({
  templates: asked.length > 0 ? (asked as TemplateId[]) : known,
  shots,
  executablePath: process.env.CHROMIUM_PATH || undefined,
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);

process.stdout.write(`${table(rows)}\n\n`);
const thirdParty = [...new Set(rows.flatMap((r) => r.thirdParty))];
if (thirdParty.length > 0) {
  process.stdout.write(
    `note: pages asked other hosts before any tap (answered empty here): ${thirdParty.join(', ')}\n`,
  );
}
const review = rows.flatMap((r) => r.review.map((m) => `${r.template} / ${r.page}: ${m}`));
if (review.length > 0) {
  process.stdout.write(`to look at in the screenshots (not failures):\n${review.map((m) => `  ${m}`).join('\n')}\n`);
}
if (shots) {
  await writeFile(path.join(shots, 'report.json'), `${JSON.stringify(rows, null, 2)}\n`);
  process.stdout.write(`screenshots at ${WIDTHS.join(' and ')} px, and report.json: ${path.relative('.', shots)}/\n`);
}
const failing = rows.filter((r) => r.problems.length > 0);
if (failing.length === 0) {
  process.stdout.write(`all ${rows.length} pages pass (${seconds} s)\n`);
} else {
  process.stdout.write('\n');
  for (const r of failing) {
    process.stdout.write(`${r.template} / ${r.page}:\n${r.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  }
  process.stdout.write(`\n${failing.length} of ${rows.length} pages FAIL (${seconds} s)\n`);
  process.exitCode = 1;
}
