/**
 * renderer/templateErrors.ts: a template that does not compile is reported by the `.eta` file an
 * author edits, its line and the line itself, not by the assembled page's generated function.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { assemble } from '../../renderer/layout.js';
import { TEMPLATES_DIR } from '../../renderer/render.js';
import { whereTemplateFails } from '../../renderer/templateErrors.js';

describe('whereTemplateFails (renderer/templateErrors.ts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'linkpage-template-errors-'));
    cpSync(TEMPLATES_DIR, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Puts `line` into `file` of the scratch copy as its line `at` (1-based). */
  const insert = (file: string, at: number, line: string) => {
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.splice(at - 1, 0, line);
    writeFileSync(path.join(dir, file), lines.join('\n'));
  };

  it('names the partial and the line of JavaScript that does not parse, with the line itself', () => {
    insert('partials/link.eta', 3, '<% if (b.featured { %>');
    const where = whereTemplateFails(dir, assemble(dir, 'aurora').files);
    expect(where).to.match(/^partials\/link\.eta:3: Unexpected token '\{'/);
    expect(where).to.include('3 | <% if (b.featured { %>');
  });

  it("names a template's own file and the line and column of a tag left open", () => {
    insert('photo/header.eta', 2, '<p><%= it.v.title');
    const where = whereTemplateFails(dir, assemble(dir, 'photo').files);
    expect(where).to.match(/^photo\/header\.eta:2(:\d+)?: /);
    expect(where).to.include('2 | <p><%= it.v.title');
  });

  it('finds nothing in templates that compile', () => {
    expect(whereTemplateFails(dir, assemble(dir, 'aurora').files)).to.equal(null);
  });
});
