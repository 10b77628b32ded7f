/**
 * Proposals in Chromium: a person makes a contributor key on the keys screen, an agent's change
 * with it waits as a proposal, the pages list shows it to review, the review shows the page now
 * and as proposed side by side, and approving publishes it.
 */
import { expect } from 'chai';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { api } from '../helpers/client.js';
import { app } from '../helpers/hooks.js';

describe('reviewing a proposal in the dashboard, in Chromium', function () {
  this.timeout(120_000);
  const { freshPage, signUpWithPage } = dashboardBrowser();

  it('a contributor key’s change waits with a badge, is shown beside the page as it is, and is published once approved', async () => {
    const page = await freshPage();
    const editor = await signUpWithPage(page, 'review');
    const pageId = editor.split('/').at(-1) as string;

    await page.goto(`${app().url}/dashboard/keys`);
    await page.getByLabel(/^Label/).fill('drafting agent');
    await page.getByRole('radio', { name: /^Contributor/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())?.trim() ?? '';
    expect(key).to.match(/^svc_sk_/);
    expect(await page.getByRole('cell', { name: /^Contributor/ }).count()).to.equal(1);

    const proposed = await api.patch(`/api/profiles/${pageId}`, { bio: 'Written by the agent' }, { key });
    expect(proposed.status, proposed.text).to.equal(202);

    await page.goto(`${app().url}/dashboard`);
    await page.getByRole('link', { name: /1 proposal to review/ }).click();
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.waitForURL(/\/proposals\/[0-9a-f]{24}$/);
    expect(await page.locator('.lead').textContent()).to.include('key "drafting agent"');
    const now = page.frameLocator('iframe[title$="as it is now"]');
    const next = page.frameLocator('iframe[title$="as proposed"]');
    await next.getByText('Written by the agent').waitFor();
    expect(await now.getByText('Written by the agent').count()).to.equal(0);
    await screenshot(page, 'proposal-review');

    await page.getByRole('button', { name: 'Approve and publish' }).click();
    await page.waitForURL(/\/proposals\?notice=/);
    expect(await page.getByRole('status').textContent()).to.include('Approved and published');
    expect(await page.getByText('Approved', { exact: true }).count()).to.equal(1);
    const after = await api.get(`/api/profiles/${pageId}`, { key });
    expect(after.body.bio).to.equal('Written by the agent');
  });
});
