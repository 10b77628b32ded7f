/**
 * Column names stay in store/: every repository maps its rows to the camelCase entities of
 * core/entities.ts and back, so no code outside store/ (tests aside, which may query SQL
 * directly) names a column. This reads the snake_case column names from the migrations and
 * looks for them used as names in the other sources: `x.column_name`, `x?.column_name`,
 * `x['column_name']`, an object key `column_name:` and a quoted `'column_name'` (as in a
 * `Pick<Row, 'column_name'>`). Text in SQL strings outside store/ (the benchmarks' seeding)
 * has no such forms but for `alias.column_name`, which the scan leaves out when it sits inside
 * a template literal of SQL. Names of other systems (the country database's `country_code`, an
 * imported page's `avatar_url`) are not column names and pass; should one ever be, the line that
 * reads it says so with a `not a column` comment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED = new Set(['node_modules', 'store', 'test', 'dist', 'data', 'coverage', '.git']);

/** The snake_case column names the migrations create. */
function columnNames(): Set<string> {
  const dir = join(ROOT, 'platform/store/migrations');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(join(dir, file), 'utf8').replace(/--.*$/gm, '');
    for (const [, body] of sql.matchAll(/CREATE TABLE\s+\w+\s*\(([\s\S]*?)\n\);/gi)) {
      for (const [, name] of body.matchAll(/^\s*([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+[a-z]/gm)) names.add(name);
    }
    for (const [, name] of sql.matchAll(/ADD COLUMN\s+(?:IF NOT EXISTS\s+)?([a-z][a-z0-9_]*)/gi)) {
      if (name.includes('_')) names.add(name);
    }
  }
  return names;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.') || SKIPPED.has(e.name)) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|mts|mjs|js|eta)$/.test(e.name) ? [path] : [];
  });
}

/** Template literals that hold SQL (a statement keyword near their start). */
const SQL_LITERAL = /`\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER)\b[^`]*`/g;

/** Every place outside store/ and test/ that names a column: `file:line: text`. */
function columnUses(): string[] {
  const columns = [...columnNames()];
  const use = new RegExp(
    `(?:\\??\\.(${columns.join('|')})\\b|\\[['"](${columns.join('|')})['"]\\]|\\b(${columns.join('|')})\\s*\\??:|['"](${columns.join('|')})['"])`,
    'g',
  );
  const found: string[] = [];
  for (const file of sources(ROOT)) {
    const text = readFileSync(file, 'utf8').replace(SQL_LITERAL, (sql) => sql.replace(/[^\n]/g, ' '));
    text.split('\n').forEach((line, i) => {
      if (/^\s*(\*|\/\/|\/\*)/.test(line) || /\/\/.*not a column/.test(line)) return;
      if (line.match(use)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('column names', () => {
  it('reads the snake_case column names from the migrations', () => {
    const names = columnNames();
    for (const name of ['is_published', 'account_id', 'banned_at', 'markdown_reads', 'time_zone', 'last_seen_at']) {
      expect(names, name).to.include(name);
    }
  });

  it('appear nowhere outside store/: the rest of the code sees camelCase entities', () => {
    const uses = columnUses();
    expect(uses, `column names outside store/ (map them in the repository):\n${uses.join('\n')}\n`).to.be.empty;
  });
});
