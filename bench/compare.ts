/**
 * `npm run bench -- compare <git-ref> [bench…] [--short] [--rounds n] [--fail-over x]`: the named
 * benches (every bench when none is named) on a worktree of <git-ref> and on this tree, in
 * alternating rounds (ref then this tree, then the other way round), so that the machine's drift
 * hits both alike. Both sides run this tree's bench/ folder, so only the product's code differs;
 * where it cannot run on the ref (the ref's modules differ), the ref's own bench/ runs there.
 *
 * Every figure a bench prints with a unit (ms, s, MB, req/s, pages/s…) is paired with the same
 * figure of the other side, line by line, and its ratio taken in each round; the median of those
 * ratios is printed, as "worse by" (above 1 when this tree is slower or bigger, whichever way the
 * unit points). With `--fail-over x`, the exit code is 1 when a figure is worse by more than x,
 * and the report names it; a figure over it is first measured again, as many rounds more, and
 * judged on all of them. Nothing here compares with a figure from another run.
 *
 * When no file of the product differs between <git-ref> and this tree (only benches, tests, docs
 * or CI changed), nothing is measured: both sides would run the same code, and any figure "worse"
 * would be the machine's noise alone. The ref `product-parent` names the parent of the latest
 * commit that changed a file of the product (CI compares with it: a commit of docs after a change
 * of the product still measures that change).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git, NOT_PRODUCT, PRODUCT_PARENT, productDiffers, productParent } from './productChange.js';

/** The middle of the values: the mean of the two middle ones for an even count. */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

/** Units where more is better; every other unit (ms, s, MB, %…) is a cost. */
const RATES = new Set(['req/s', 'pages/s', 'links/s', '/s', 'ratio-up']);
const FIGURE = /(\d[\d,]*(?:\.\d+)?)\s?(ms|s|MB|req\/s|pages\/s|links\/s|\/s)(?![\w/])/g;

interface Figure {
  /** The line with its figures replaced by `#`, then the figure's place in it. */
  key: string;
  /** The words before the figure, to name it in the report. */
  label: string;
  value: number;
  unit: string;
  /**
   * False for a figure of a line that gives its ratio to a baseline of the same run (`ratio
   * 0.85`): the ratio is judged, the line's rates are printed only. A loaded machine moves the
   * product's rate and the baseline's together (a CI run found a bare node:http server 1.61×
   * "worse" between two commits).
   */
  judged: boolean;
}

/** `ratio 0.85` or `ratio of p99 1.2`: a line's own ratio to the baseline it measured beside it. */
const RATIO = /\bratio(?: of [\w ]+?)? (\d+(?:\.\d+)?)(?![\d.]*\s?(?:ms|s|MB|req\/s|pages\/s|links\/s|\/s)\b)/;

/** The figures of a bench's output, each keyed by its line's wording and its place in the line. */
export function figures(output: string): Figure[] {
  const found: Figure[] = [];
  const seen = new Map<string, number>();
  for (const line of output.split('\n')) {
    const matches = [...line.matchAll(FIGURE)];
    // A short run's "[publish, 12 s into the run]" says when, not how fast.
    if (matches.length === 0 || /^\[.* into the run\]$/.test(line)) continue;
    const skeleton = line.replace(/\d[\d,.]*/g, '#').trim();
    const n = (seen.get(skeleton) ?? 0) + 1;
    seen.set(skeleton, n);
    const ratio = RATIO.exec(line);
    if (ratio) {
      // The ratio points as the line's first figure does: a rate over a rate, a cost over a cost.
      const up = RATES.has(matches[0][2]);
      found.push({
        key: `${skeleton}\u0000${n}\u0000ratio`,
        label: `${line.slice(0, Math.min(40, line.indexOf(':') + 1 || 40)).trim()} ratio to its baseline`,
        value: Number(ratio[1]),
        unit: up ? 'ratio-up' : 'ratio-down',
        judged: true,
      });
    }
    matches.forEach((m, i) => {
      const before = line.slice(0, m.index).replace(FIGURE, '#').trim().split(/\s+/);
      // A target is the same words on both sides.
      if (/\btarget\b[^)]*$/.test(before.slice(-6).join(' '))) return;
      const what = before.length > 8 ? [...before.slice(0, 5), '…', ...before.slice(-3)] : before;
      found.push({
        key: `${skeleton}\u0000${n}\u0000${i}`,
        label: `${what.join(' ')} # ${m[2]}`,
        value: Number(m[1].replaceAll(',', '')),
        unit: m[2],
        judged: !ratio,
      });
    });
  }
  return found;
}

/** A figure as the report prints it: three significant digits, whole numbers from 1,000 up. */
function shown(value: number): string {
  return Math.abs(value) >= 1000 ? String(Math.round(value)) : String(Number(value.toPrecision(3)));
}

/** How much worse `head` is than `ref`: above 1 when slower, bigger or fewer per second. */
export function worseBy(ref: number, head: number, unit: string): number {
  if (ref === head) return 1;
  return RATES.has(unit) ? ref / head : head / ref;
}

/** A worktree of `ref` with node_modules: this tree's when the lockfiles agree, else its own. */
function worktreeOf(ref: string): { dir: string; remove(): void } {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = mkdtempSync(path.join(tmpdir(), 'linkpage-compare-'));
  git(['worktree', 'add', '--detach', dir, commit]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir]);
    rmSync(dir, { recursive: true, force: true });
  };
  const lock = (root: string) => readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  if (lock(dir) === lock(process.cwd())) symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  else {
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    if (ci.status !== 0) {
      remove();
      throw new Error(`npm ci failed in the worktree of ${ref}`);
    }
  }
  return { dir, remove };
}

/** Runs `bench/run.ts` with `args` in `dir`; its output, or throws with its error. */
function runBench(dir: string, args: string[], bench = 'bench/run.ts'): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', bench, ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`bench in ${dir} exited with ${r.status ?? r.signal}:\n${r.stderr.slice(-3000)}`);
  return r.stdout;
}

interface Options {
  ref: string;
  benches: string[];
  short: boolean;
  rounds: number;
  failOver: number | null;
}

function parse(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv.splice(at, 2)[1] : undefined;
  };
  const rounds = Number(value('--rounds') ?? 3);
  const failOver = value('--fail-over');
  const short = argv.includes('--short');
  const [ref, ...benches] = argv.filter((a) => !a.startsWith('--'));
  if (!ref)
    throw new Error('usage: npm run bench -- compare <git-ref> [bench…] [--short] [--rounds n] [--fail-over x]');
  return { ref, benches, short, rounds, failOver: failOver === undefined ? null : Number(failOver) };
}

export async function compare(argv: string[]): Promise<number> {
  const o = parse([...argv]);
  if (o.ref === PRODUCT_PARENT) {
    const found = productParent();
    if (!found) {
      console.log(`compare ${PRODUCT_PARENT}: no commit with a parent changed the product: nothing to measure`);
      return 0;
    }
    console.log(
      `${PRODUCT_PARENT}: ${found.parent.slice(0, 7)}, the parent of ${found.commit.slice(0, 7)} (the latest commit that changed the product)`,
    );
    o.ref = found.parent.slice(0, 10);
  }
  if (!productDiffers(o.ref)) {
    console.log(
      `compare ${o.ref}: no file of the product differs from this tree (only ${NOT_PRODUCT.join(' ')} may): nothing to measure`,
    );
    return 0;
  }
  const tree = worktreeOf(o.ref);
  const head = process.cwd();
  // Both sides run this tree's bench/ where the ref's modules allow it.
  const ownBench = path.join(tree.dir, 'bench-of-head');
  spawnSync('cp', ['-r', path.join(head, 'bench'), ownBench]);
  const args = [...o.benches, ...(o.short ? ['--short'] : [])];
  let refBench = 'bench-of-head/run.ts';
  try {
    const sides = { ref: [] as Figure[][], head: [] as Figure[][] };
    console.log(
      `compare ${o.ref} (${git(['rev-parse', '--short', o.ref])}) with this tree: ${o.rounds} rounds of ${args.join(' ') || 'every bench'}`,
    );
    const play = (from: number, to: number) => {
      for (let round = from; round < to; round++) {
        const order = round % 2 === 0 ? (['ref', 'head'] as const) : (['head', 'ref'] as const);
        for (const side of order) {
          sides[side].push(figures(side === 'head' ? runBench(head, args) : refSide()));
          console.log(
            `  round ${round + 1}, ${side === 'ref' ? o.ref : 'this tree'}: ${sides[side].at(-1)?.length} figures`,
          );
        }
      }
    };
    const refSide = () => {
      try {
        return runBench(tree.dir, args, refBench);
      } catch (err) {
        if (refBench === 'bench/run.ts') throw err;
        console.log(`this tree's bench/ does not run on ${o.ref}; its own bench/ runs there instead`);
        refBench = 'bench/run.ts';
        return runBench(tree.dir, args, refBench);
      }
    };
    play(0, o.rounds);
    if (report(o, sides, false) === 0) return 0;
    // A figure over the limit is measured again, as many rounds more, and judged on all of
    // them: a slow moment of a shared machine does not outlast them, a slower product does.
    console.log(`
a figure is over the limit: ${o.rounds} rounds more before judging`);
    play(o.rounds, 2 * o.rounds);
    return report(o, sides);
  } finally {
    tree.remove();
    if (existsSync(tree.dir)) rmSync(tree.dir, { recursive: true, force: true });
  }
}

function report(o: Options, sides: { ref: Figure[][]; head: Figure[][] }, final = true): number {
  const worse: string[] = [];
  const byKey = (run: Figure[]) => new Map(run.map((f) => [f.key, f]));
  const refRuns = sides.ref.map(byKey);
  const headRuns = sides.head.map(byKey);
  console.log(`\n${'figure'.padEnd(70)} ${o.ref.padStart(10)} ${'this tree'.padStart(10)}  worse by`);
  for (const figure of sides.head[0] ?? []) {
    const pairs = refRuns
      .map((run, i) => [run.get(figure.key), headRuns[i].get(figure.key)] as const)
      .filter((pair): pair is readonly [Figure, Figure] => Boolean(pair[0] && pair[1]));
    if (pairs.length === 0) continue;
    const ratio = middle(pairs.map(([a, b]) => worseBy(a.value, b.value, figure.unit)));
    const refValue = middle(pairs.map(([a]) => a.value));
    const headValue = middle(pairs.map(([, b]) => b.value));
    const over = o.failOver !== null && ratio > o.failOver;
    const flag = !over ? '' : figure.judged ? '  <- over the limit' : '  (judged by its ratio)';
    if (over && figure.judged) worse.push(`${figure.label}: worse by ${ratio.toFixed(2)}`);
    console.log(
      `${figure.label.slice(0, 70).padEnd(70)} ${shown(refValue).padStart(10)} ${shown(headValue).padStart(10)}  ${ratio.toFixed(2)}${flag}`,
    );
  }
  if (o.failOver === null) return 0;
  if (!final) return worse.length === 0 ? 0 : 1;
  if (worse.length === 0) {
    console.log(`\nno figure worse by more than ${o.failOver}x than on ${o.ref}`);
    return 0;
  }
  console.log(
    `\n${worse.length} figure(s) worse by more than ${o.failOver}x than on ${o.ref}:\n  ${worse.join('\n  ')}`,
  );
  return 1;
}
