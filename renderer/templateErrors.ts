/**
 * Where a template that does not compile is broken, in its author's terms: the `.eta` file (the
 * layout or one of the partials assemble() put in place), its line and the line itself, rather
 * than Eta's message about the one generated function of the assembled page. Each file is
 * compiled alone: Eta names the line of an unclosed tag; for JavaScript that does not parse, the
 * file's generated function (Eta's debug mode marks each line it came from) is parsed by V8,
 * whose error names the generated line, taken back to the template's line by those marks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { Eta } from 'eta';

/** `file:line: message`, the line's source and a caret when the column is known; null when no file fails alone. */
export function whereTemplateFails(dir: string, files: readonly string[]): string | null {
  const eta = new Eta({ views: dir, autoEscape: true, autoTrim: false, debug: true });
  for (const file of files.filter((f) => f.endsWith('.eta'))) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    try {
      eta.compile(source);
    } catch (err) {
      return describe(eta, file, source, err as Error);
    }
  }
  return null;
}

function describe(eta: Eta, file: string, source: string, err: Error): string {
  const lines = source.split('\n');
  const shown = (line: number, column?: number) =>
    `\n  ${line} | ${lines[line - 1] ?? ''}` +
    (column === undefined ? '' : `\n  ${' '.repeat(String(line).length)} | ${' '.repeat(column)}^`);
  // Eta's parser: "unclosed tag at line 3 col 4:".
  const parsed = /at line (\d+) col (\d+)/.exec(err.message);
  if (parsed) {
    const [line, column] = [Number(parsed[1]), Number(parsed[2])];
    return `${file}:${line}:${column}: ${err.message.split('\n')[0].replace(/\s*at line.*$/, '')}${shown(line, column)}`;
  }
  const js = generatedLine(eta, source);
  const reason = /\n\n(.+)\n/.exec(err.message)?.[1] ?? err.message.split('\n')[0];
  if (js === null) return `${file}: ${reason}`;
  return `${file}:${js.templateLine}: ${reason}${shown(js.templateLine)}`;
}

/** The template line of the generated JavaScript's first syntax error, by Eta's `__eta.line=` marks. */
function generatedLine(eta: Eta, source: string): { templateLine: number } | null {
  const body = eta.compileToString(source);
  try {
    new vm.Script(`(function (it, options) {\n${body}\n})`, { filename: 'template.js' });
    return null;
  } catch (err) {
    const at = /template\.js:(\d+)/.exec((err as Error).stack ?? '');
    if (!at) return null;
    // The wrapper's first line is not the body's.
    const generated = body.split('\n').slice(0, Number(at[1]) - 1);
    for (let i = generated.length - 1; i >= 0; i--) {
      const mark = /__eta\.line=(\d+)/.exec(generated[i]);
      if (mark) return { templateLine: Number(mark[1]) };
    }
    return null;
  }
}
