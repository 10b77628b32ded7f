import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';
import { notFoundPage } from '../../router/notFound.js';
import { nuErrors } from '../helpers/nuChecker.js';

// @slow: starts Java (the Nu Html Checker); `npm run test:fast` leaves it out.
describe('published HTML validity (Nu Html Checker) @slow', function () {
  this.timeout(120_000);

  it('has no errors in any template, nor in the 404 page', async () => {
    const documents = new Map<string, string>();
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
      documents.set(`${id}.html`, html);
    }
    documents.set('404.html', notFoundPage().toString());
    const messages = await nuErrors(documents);
    expect(messages, messages.slice(0, 20).join('\n')).to.deep.equal([]);
  });
});
