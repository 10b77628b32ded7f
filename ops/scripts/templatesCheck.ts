/**
 * `npm run templates:check`: every template with the sample, edge, realistic and hostile pages
 * through the Nu Html Checker, axe-core in Chromium (zero violations, contrast included), every
 * icon at 3:1 against what is behind it (templatesCheckIcons.ts; light, and dark where a page follows the device),
 * every player's poster in the page's scheme, its title readable and cut only after two lines
 * (templatesCheckPlayers.ts), the
 * geometry at 320, 390 and 1280 px and the wire-size budget, then random pages through the
 * geometry; full-page screenshots at 390 and 1440 px into .templates-check/ for review. Prints a
 * table and exits 1 with the reasons when any page fails.
 *
 *   npm run templates:check                      every template
 *   npm run templates:check -- aurora mono       some templates
 *   npm run templates:check -- --no-screenshots  skip the screenshots (CI)
 *   npm run templates:check -- --seed            random pages from a fresh seed (20 a template)
 *   npm run templates:check -- --seed=1234       the random pages of that seed again
 *   npm run templates:check -- --random=50       random pages a template (CI: 4, seed CI_SEED)
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TemplateId } from '../../core/schemas/fields.js';
import { WIDTHS } from './templatesCheckBrowser.js';
import { GEOMETRY_RULES } from './templatesCheckGeometry.js';
import { CI_SEED } from './templatesCheckRandom.js';
import { checkTemplates, type PageCheck, templateList } from './templatesCheckRun.js';

const SHOTS = path.resolve('.templates-check');

function table(rows: PageCheck[]): string {
  const head = ['template', 'page', 'html', 'gzip', 'brotli', 'budget', 'Nu', 'axe', 'geometry', 'requests', 'result'];
  const body = rows.map((r) => [
    r.template,
    r.page,
    String(r.size.html),
    String(r.size.gzip),
    String(r.size.br),
    String(r.size.budget),
    String(r.nu.length),
    String(r.axe.length),
    String(r.geometry.length),
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
/** `--name=value` or a bare `--name` (true), or undefined. */
const option = (name: string) => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  return a === undefined ? undefined : a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const seedArg = option('seed');
const seed = seedArg === undefined ? CI_SEED : seedArg === true ? Math.floor(Math.random() * 2 ** 31) : Number(seedArg);
const countArg = option('random');
const count = typeof countArg === 'string' ? Number(countArg) : seedArg === undefined ? 4 : 20;
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 0) {
  process.stderr.write('--seed and --random take whole numbers\n');
  process.exit(2);
}
// A run over every template starts the folder afresh; a run over some replaces their pictures only.
if (shots && asked.length === 0) await rm(shots, { recursive: true, force: true });
else if (shots) {
  const theirs = (file: string) => asked.some((id) => file.startsWith(`${id}-`));
  for (const file of (await readdir(shots).catch(() => [])).filter(theirs)) await rm(path.join(shots, file));
}

const started = performance.now();
const rows = await checkTemplates({
  templates: asked.length > 0 ? (asked as TemplateId[]) : known,
  shots,
  executablePath: process.env.CHROMIUM_PATH || undefined,
  random: { count, seed },
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);

// Random pages that pass make no row: one line says how many there were.
const randomRows = rows.filter((r) => r.seed !== undefined);
process.stdout.write(`${table(rows.filter((r) => r.seed === undefined || r.problems.length > 0))}\n\n`);
process.stdout.write(
  `random pages: ${randomRows.length} (${count} a template, seed ${seed}; again with --seed=${seed}), ${randomRows.filter((r) => r.problems.length > 0).length} failing\n`,
);
const byRule = GEOMETRY_RULES.map((rule) => {
  const pages = rows.filter((r) => r.geometry.some((g) => g.rule === rule));
  return pages.length === 0
    ? ''
    : `  ${rule}: ${pages.length} pages (${[...new Set(pages.map((r) => r.template))].join(', ')})\n`;
}).join('');
if (byRule) process.stdout.write(`geometry failures by rule:\n${byRule}`);
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
