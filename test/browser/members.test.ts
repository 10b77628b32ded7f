/**
 * People on an account, in Chromium: an owner invites a contributor on the People screen, the
 * invitation arrives by e-mail, the person signs up from its link and accepts, their change in
 * the editor waits as a proposal, and the owner sees the badge, the page now and as proposed
 * side by side, and approves it.
 */
import { expect } from 'chai';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';

describe('inviting a contributor and approving their change, in Chromium @slow', function () {
  this.timeout(120_000);
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox?.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });
  const { freshPage, signUpWithPage } = dashboardBrowser();

  it('the invitation e-mail, accepting it, a proposal from the editor, the badge, the review side by side, approve', async () => {
    const owner = await freshPage();
    const editorPath = await signUpWithPage(owner, 'shared');

    const email = `${uniqueName('helper')}@example.com`;
    await owner.goto(`${app().url}/dashboard/members`);
    await owner.getByLabel(/^E-mail/).fill(email);
    await owner.getByRole('radio', { name: /^Contributor/ }).check();
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await owner.waitForURL(/\/dashboard\/members\?notice=/);
    expect(await owner.getByRole('status').textContent()).to.include('The invitation is on its way');
    expect(await owner.getByText(email).count()).to.equal(1);
    await screenshot(owner, 'members-invited');

    const message = await mailbox.next(email);
    expect(message.subject).to.include('invites you');
    const helper = await freshPage();
    await helper.goto(message.link!);
    await helper.waitForURL(/\/login\?next=/);
    await helper.getByRole('link', { name: 'Create an account' }).click();
    await helper.getByLabel('E-mail').fill(email);
    await helper.getByLabel(/^Password/).fill('correct horse battery');
    await helper.getByRole('button', { name: 'Create account' }).click();
    await helper.waitForURL(/\/dashboard\/invitations\//);
    expect(await helper.getByRole('heading', { level: 1 }).textContent()).to.include('Join');
    await screenshot(helper, 'members-invitation');
    await helper.getByRole('button', { name: 'Accept' }).click();
    await helper.waitForURL(/\/dashboard\?notice=joined/);
    expect(await helper.getByRole('note').first().textContent()).to.include('as contributor');

    await helper.getByRole('link', { name: 'Edit' }).first().click();
    await helper.getByLabel('Bio').fill('Proposed by the helper');
    await helper.locator('#s-profile').getByRole('button', { name: /^Save/ }).click();
    await helper.waitForURL(/\/proposals\/[0-9a-f]{24}\?notice=proposed$/);

    await owner.goto(`${app().url}/dashboard`);
    await owner.getByRole('link', { name: /1 proposal to review/ }).click();
    await owner.getByRole('link', { name: 'Review', exact: true }).click();
    await owner.waitForURL(/\/proposals\/[0-9a-f]{24}$/);
    expect(await owner.locator('.lead').textContent()).to.include(`${email} in the dashboard`);
    const next = owner.frameLocator('iframe[title$="as proposed"]');
    await next.getByText('Proposed by the helper').waitFor();
    await owner.getByRole('button', { name: 'Approve and publish' }).click();
    await owner.waitForURL(/\/proposals\?notice=/);

    await owner.goto(`${app().url}${editorPath}`);
    expect(await owner.getByLabel('Bio').inputValue()).to.equal('Proposed by the helper');
  });
});
