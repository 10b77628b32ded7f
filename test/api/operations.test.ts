/**
 * Operations (core/operations.ts): a REST route and an MCP tool that perform one operation take
 * its rate limits from one declaration, so a request over REST and a call over MCP count
 * against the same windows.
 */
import { expect } from 'chai';
import { apiRoutes } from '../../api/app.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { api, randomAddress } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { startSite, type TestSite } from '../helpers/site.js';

/** The start of the next whole hour: every window (minute, hour, day) starts fresh there or earlier. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

/** One tools/call over POST /mcp; answers the tool's result (or its error object). */
async function callTool(name: string, args: Record<string, unknown>, headers: Record<string, string>) {
  const res = await fetch(`${app().url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'user-agent': 'linkpage-tests/1.0',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(res.status, `${name}: HTTP status`).to.equal(200);
  return JSON.parse((await res.json()).result.content[0].text);
}

describe('operations: one declaration of limits for REST and MCP', () => {
  it('every MCP tool performs the operation of a REST route', () => {
    const performed = new Set(apiRoutes(app().services).map((r) => r.operation));
    for (const tool of TOOLS) expect(performed, `${tool.name}: ${tool.operation}`).to.include(tool.operation);
  });

  it('check_username and GET /api/username/check count against one window per address', async () => {
    app().clock.set(startOfNextHour());
    const address = randomAddress();
    const headers = { 'x-forwarded-for': address };
    for (let i = 1; i <= 20; i++) {
      expect((await api.get(`/api/username/check?u=${uniqueName()}`, { headers })).status, `GET ${i}`).to.equal(200);
      expect((await callTool('check_username', { username: uniqueName() }, headers)).status, `call ${i}`).to.be.a(
        'string',
      );
    }
    expect((await callTool('check_username', { username: uniqueName() }, headers)).code).to.equal('rate_limited');
    expect((await api.get(`/api/username/check?u=${uniqueName()}`, { headers })).body.code).to.equal('rate_limited');
  });

  it('get_claim_link and POST /api/agent/claim-link count against one window per account', async () => {
    app().clock.set(startOfNextHour());
    const { key } = await createAgentAccount();
    const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': randomAddress() };
    for (let i = 1; i <= 5; i++) {
      expect((await api.post('/api/agent/claim-link', undefined, { key })).status, `POST ${i}`).to.equal(201);
      expect((await callTool('get_claim_link', {}, headers)).claimUrl, `call ${i}`).to.be.a('string');
    }
    expect((await callTool('get_claim_link', {}, headers)).code).to.equal('rate_limited');
    expect((await api.post('/api/agent/claim-link', undefined, { key })).body.code).to.equal('rate_limited');
  });

  describe('import_profile and POST /api/import/{network}', () => {
    let site: TestSite;
    before(async () => {
      site = await startSite('operations');
      app().services.config.importBaseUrls.github = `${site.origin}/gh`;
      site.route('/gh/users/quiet', { type: 'application/json', body: JSON.stringify({ login: 'quiet' }) });
    });
    after(async () => {
      app().services.config.importBaseUrls = {};
      await site.close();
    });

    it('use one daily quota per account (the network in the path, or among the arguments)', async () => {
      app().clock.set(startOfNextHour());
      const { key } = await createAgentAccount();
      const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': randomAddress() };
      const post = () => api.post('/api/import/github', { handle: 'quiet' }, { key });
      const call = () => callTool('import_profile', { network: 'github', handle: 'quiet' }, headers);
      for (let i = 1; i <= 5; i++) {
        expect((await post()).status, `POST ${i}`).to.equal(200);
        expect((await call()).displayName, `call ${i}`).to.equal('quiet');
      }
      expect((await call()).code).to.equal('quota');
      expect((await post()).body.code).to.equal('quota');
    });
  });
});
