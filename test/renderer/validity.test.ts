import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';
import { notFoundPage } from '../../router/notFound.js';

const run = promisify(execFile);
const vnuJar = createRequire(import.meta.url)('vnu-jar') as string;

// @slow: starts Java (the Nu Html Checker); `npm run test:fast` leaves it out.
describe('published HTML validity (Nu Html Checker) @slow', function () {
  this.timeout(120_000);

  it('has no errors in any template, nor in the 404 page', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-vnu-'));
    try {
      const files: string[] = [];
      for (const id of TEMPLATE_IDS) {
        const page = samplePage(id);
        page.profile.theme.backgroundImage =
          id === 'aurora' ? `background/${'a'.repeat(24)}/${'b'.repeat(36)}.avif` : null;
        page.profile.layout = id === 'showcase' ? 'grid' : 'list';
        const { html } = renderPage({
          page,
          now: new Date('2026-03-01T00:00:00Z'),
          urls: { page: 'https://ada.pages.example/', media: 'https://media.example' },
        });
        files.push(path.join(dir, `${id}.html`));
        await writeFile(files[files.length - 1], html);
      }
      files.push(path.join(dir, '404.html'));
      await writeFile(files[files.length - 1], notFoundPage());
      const { stderr } = await run('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', ...files]).catch(
        (err: { stderr: string }) => ({ stderr: err.stderr }),
      );
      const messages = (JSON.parse(stderr).messages as { url: string; message: string; extract?: string }[]).map(
        (m) => `${path.basename(m.url)}: ${m.message} ${m.extract ?? ''}`,
      );
      expect(messages, messages.slice(0, 20).join('\n')).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
