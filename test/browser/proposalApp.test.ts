/**
 * The proposal review as an MCP App (api/mcp/apps/reviewApp.ts), in Chromium, in a host made of
 * the extension's own AppBridge (`@modelcontextprotocol/ext-apps/app-bridge`): get_proposal names
 * the view, the host reads it over MCP, shows it in a sandboxed frame with the tool's result, and
 * the view's Approve is a call of approve_proposal that the host sends on to the server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import * as esbuild from 'esbuild';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { api, randomAddress } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { keyOf, signedUp } from '../helpers/person.js';

/** The extension's host side, bundled for the browser. */
async function hostLibrary(): Promise<string> {
  const out = await esbuild.build({
    stdin: {
      contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'iife',
    globalName: 'HostLib',
    platform: 'browser',
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0].text;
}

async function connect(key: string): Promise<Client> {
  const headers = { 'x-forwarded-for': randomAddress(), authorization: `Bearer ${key}` };
  const client = new Client({ name: 'app-host-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('the proposal review MCP App, in a host of the extension’s AppBridge @slow', function () {
  this.timeout(120_000);
  const { freshPage } = dashboardBrowser();

  it('get_proposal names the view; the host shows the proposed page, and Approve publishes it', async () => {
    const person = await signedUp();
    const owner = (await keyOf(person, { label: 'owner', role: 'owner' })).key;
    const contributor = (await keyOf(person, { label: 'drafting agent', role: 'contributor' })).key;
    const page = (await api.post('/api/profiles', { username: uniqueName('mcpapp') }, { key: owner })).body;
    const proposed = await api.patch(`/api/profiles/${page.id}`, { bio: 'Drafted by the agent' }, { key: contributor });
    expect(proposed.status, proposed.text).to.equal(202);

    const client = await connect(owner);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'get_proposal');
      const uri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
      expect(uri).to.equal('ui://linkpage/proposal-review.html');
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).to.include(uri);
      const [view] = (await client.readResource({ uri: uri! })).contents;
      expect(view.mimeType).to.equal('text/html;profile=mcp-app');
      const result = await client.callTool({
        name: 'get_proposal',
        arguments: { id: page.id, proposal: proposed.body.id },
      });
      expect(result.isError).to.not.equal(true);
      expect((result.structuredContent as { reviewUrl: string }).reviewUrl).to.equal(
        `${app().services.config.baseUrl}/dashboard/pages/${page.id}/proposals/${proposed.body.id}`,
      );

      const host = await freshPage();
      const opened: string[] = [];
      await host.exposeFunction('callServerTool', (params: { name: string; arguments: Record<string, unknown> }) =>
        client.callTool(params),
      );
      await host.exposeFunction('openedLink', (url: string) => opened.push(url));
      await host.setContent(
        '<!doctype html><title>host</title><iframe id="app" sandbox="allow-scripts" style="width:420px;height:640px;border:0"></iframe>',
      );
      await host.addScriptTag({ content: await hostLibrary() });
      await host.evaluate(
        async ({ html, toolResult }) => {
          const { AppBridge, PostMessageTransport } = (window as any).HostLib;
          const frame = document.getElementById('app') as HTMLIFrameElement;
          const bridge = new AppBridge(
            null,
            { name: 'test host', version: '1.0.0' },
            { openLinks: {}, serverTools: {} },
          );
          bridge.oncalltool = (params: unknown) => (window as any).callServerTool(params);
          bridge.onopenlink = async ({ url }: { url: string }) => {
            await (window as any).openedLink(url);
            return {};
          };
          bridge.oninitialized = () => bridge.sendToolResult(toolResult);
          await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
          frame.srcdoc = html;
        },
        { html: (view as { text: string }).text, toolResult: result },
      );

      const frame = host.frameLocator('#app');
      await frame.getByText('Drafted by the agent').waitFor();
      expect(await frame.getByRole('heading', { level: 1 }).textContent()).to.match(/^Proposed: .*bio/i);
      await screenshot(host, 'proposal-app');
      await frame.getByRole('button', { name: 'Compare in the dashboard' }).click();
      await frame.getByRole('button', { name: 'Approve and publish' }).click();
      await frame.getByText('Approved and published.').waitFor();
      expect(opened).to.deep.equal([(result.structuredContent as { reviewUrl: string }).reviewUrl]);
      const now = await api.get(`/api/profiles/${page.id}`, { key: owner });
      expect(now.body.bio).to.equal('Drafted by the agent');
    } finally {
      await client.close();
    }
  });
});
