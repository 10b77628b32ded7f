/**
 * MCP authorization in Chromium (platform/edge/oauth/, api/mcp/account.ts, dashboard/connect.ts): the whole
 * flow as an MCP client drives it, with the person's consent given in a real browser. The
 * rules the flow keeps are in test/api/oauth.test.ts.
 */
import { expect } from 'chai';
import { SCOPE_NAMES } from '../../core/rules/scopes.js';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { app } from '../helpers/hooks.js';
import { callTool, mcpCall, redirectReceiver } from '../helpers/oauthClient.js';
import { readyClient } from '../helpers/oauthFlow.js';

describe('MCP authorization: the flow an MCP client drives', () => {
  const browser = dashboardBrowser();
  let receiver: Awaited<ReturnType<typeof redirectReceiver>>;
  before(async () => {
    receiver = await redirectReceiver();
  });
  after(() => receiver.close());

  it('goes from the 401 to a tool call, refreshes, and stops once the person disconnects the app', async function () {
    this.timeout(60_000);
    const base = app().url;
    const c = await readyClient(receiver.uri);
    // Discovery: the 401 names the metadata, whose resource is the address itself.
    expect(c.found.unauthorized.status).to.equal(401);
    expect(c.found.challenge).to.equal(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/account", scope="${SCOPE_NAMES.join(' ')}"`,
    );
    expect(c.found.resourceMetadata.resource).to.equal(`${base}/mcp/account`);
    expect(c.found.resourceMetadata.authorization_servers).to.deep.equal([base]);
    expect(c.found.server.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(c.found.server.scopes_supported).to.include.members(SCOPE_NAMES);

    // The person logs in to the dashboard and approves, without statistics.
    const page = await browser.freshPage();
    await browser.signUp(page);
    const landed = receiver.next();
    await page.goto(c.authorize());
    await page.waitForURL(/\/dashboard\/connect\//);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Connect Test Assistant');
    expect(await page.locator('main .card p').first().textContent()).to.include('@example.com');
    await page.getByLabel(/See how many people visit/).uncheck();
    await page.getByLabel(/Propose changes to your pages/).uncheck();
    await page.getByRole('button', { name: 'Allow' }).click();
    const callback = await landed;
    // The client's server has the code; the browser's page at the callback is done loading too,
    // or the next goto below would be cut short by it (seen on a loaded machine).
    await page.waitForURL((u) => u.pathname === '/callback');
    expect(callback.searchParams.get('state')).to.equal(c.state);
    const code = callback.searchParams.get('code') ?? '';

    // The code for tokens, bound to the MCP address for people.
    const tokens = await c.exchange(code);
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    expect(tokens.body.scope?.split(' ').sort()).to.deep.equal(['pages:read', 'pages:write']);
    const access = tokens.body.access_token ?? '';
    expect(tokens.body.refresh_token).to.be.a('string');

    // A tool call with the bearer token; statistics were not allowed.
    const me = await callTool('/mcp/account', 'get_me', {}, access);
    expect(me.error).to.equal(undefined);
    expect(me.result.structuredContent).to.be.an('object');
    const pages = await callTool('/mcp/account', 'list_pages', {}, access);
    expect(pages.error).to.equal(undefined);
    const refused = await callTool('/mcp/account', 'get_stats', { id: 'x' }, access);
    expect(refused.error?.code).to.equal('insufficient_scope');

    // Refresh: a new pair; the old access token is not the new one.
    const refreshed = await c.refresh(tokens.body.refresh_token ?? '');
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    expect(refreshed.body.refresh_token).to.not.equal(tokens.body.refresh_token);
    const renewed = refreshed.body.access_token ?? '';
    expect((await callTool('/mcp/account', 'list_pages', {}, renewed)).error).to.equal(undefined);

    // The person disconnects the app beside their keys: both tokens stop at once.
    await page.goto(`${base}/dashboard/keys`);
    const row = page.getByRole('row', { name: /Test Assistant/ });
    expect(await row.getByRole('cell').nth(1).textContent(), 'what the person allowed, in words').to.equal(
      'See pages, Edit pages',
    );
    await page.getByRole('button', { name: 'Disconnect Test Assistant' }).click();
    await page.waitForURL(/notice=app-disconnected/);
    const after = await mcpCall('/mcp/account', 'tools/list', {}, renewed);
    expect(after.status).to.equal(401);
    expect(after.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    const again = await c.refresh(refreshed.body.refresh_token ?? '');
    expect(again.body.error).to.equal('invalid_grant');
  });

  it('fits a 320 px phone with an app name that is long, right-to-left and marked up', async function () {
    this.timeout(60_000);
    const name = 'مساعد الصفحات Supercalifragilisticexpialidociousassistantwithaverylongname <b>x</b>';
    const c = await readyClient(receiver.uri, name);
    const page = await browser.freshPage({ width: 320, height: 740 });
    await browser.signUpWithPage(page, 'averyveryverylongpagename');
    await page.goto(c.authorize());
    await page.waitForURL(/\/dashboard\/connect\//);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal(`Connect ${name}`);
    // The pages it may be kept to, each a checkbox with its name.
    expect(
      await page.locator('fieldset', { hasText: 'tick none for every page' }).getByRole('checkbox').count(),
    ).to.equal(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(320);
    await screenshot(page, 'connect-320');
  });

  it('signs out at /oauth/logout with the page’s own form and script, no console error, and says so', async () => {
    const page = await browser.freshPage({ width: 390, height: 844 });
    await page.goto(`${app().url}/oauth/logout`);
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    expect(await page.textContent('main')).to.include('You are signed out');
  });
});
