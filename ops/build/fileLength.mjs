/**
 * `npm run lint`'s length rule: no source file over 300 lines (split it instead). Source files
 * are the TypeScript and JavaScript the repository tracks outside test/ (test files keep one
 * endpoint's cases together). Prints each file over the limit and exits 1; plain JavaScript so
 * it runs before anything is built.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const MAX_LINES = 300;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** The lines of a text: a final newline ends the last line rather than starting another. */
export function lineCount(text) {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** Each file of `files` over the limit, with its line count. */
export function tooLong(files, read = (f) => readFileSync(f, 'utf8')) {
  const over = [];
  for (const file of files) {
    if (!SOURCE.test(file) || file.startsWith('test/') || !existsSync(file)) continue;
    const lines = lineCount(read(file));
    if (lines > MAX_LINES) over.push({ file, lines });
  }
  return over;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The files named on the command line, or else every file git tracks or would (not ignored).
  const named = process.argv.slice(2);
  const files =
    named.length > 0
      ? named
      : execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
  const over = tooLong(files);
  for (const { file, lines } of over) {
    process.stderr.write(`${file}: ${lines} lines, over the limit of ${MAX_LINES} (split the file)\n`);
  }
  process.exit(over.length > 0 ? 1 : 0);
}
