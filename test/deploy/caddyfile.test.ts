/**
 * The shipped ops/deploy/caddy/Caddyfile, as Caddy reads it (`caddy adapt`, Debian's Caddy 2.6):
 * it asks the routers' /_/domain-check before any certificate, gets certificates on demand only
 * for names no other site covers (never for the service's own names), and passes custom domains
 * to Varnish; the loopback copy the topology test runs reads the same way, with Caddy's own CA.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { caddyfileFor } from '../helpers/caddy.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHIPPED = path.join(ROOT, 'ops/deploy/caddy/Caddyfile');

interface Policy {
  subjects?: string[];
  on_demand?: boolean;
  issuers?: { module: string }[];
}

/** Caddy's JSON for a Caddyfile (it throws on any error Caddy reports). */
function adapt(file: string): any {
  return JSON.parse(
    execFileSync('caddy', ['adapt', '--config', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

const serviceUnitPort = (unit: string) =>
  Number(/\bPORT=(\d+)/.exec(readFileSync(path.join(ROOT, 'ops/deploy', unit), 'utf8'))?.[1]);

describe('ops/deploy/caddy/Caddyfile @slow', () => {
  it("asks a router's /_/domain-check, on the router unit's port, before any certificate", () => {
    const ask = new URL(adapt(SHIPPED).apps.tls.automation.on_demand.ask);
    expect(ask.pathname).to.equal('/_/domain-check');
    expect(Number(ask.port)).to.equal(serviceUnitPort('linkpage-router.service'));
  });

  it("gets certificates on demand only for names outside the service's own, which keep their certificate files", () => {
    const json = adapt(SHIPPED);
    const policies: Policy[] = json.apps.tls.automation.policies;
    const onDemand = policies.filter((p) => p.on_demand);
    expect(onDemand).to.have.length(1);
    expect(onDemand[0].subjects, 'the catch-all: every name no site names').to.equal(undefined);
    expect(policies.find((p) => p.subjects)?.subjects).to.have.members(['example.com', '*.pages.example']);
    expect(json.apps.tls.certificates.load_files).to.have.length(2);
  });

  it('passes custom domains to Varnish on its port in the nginx upstream, the Host kept', () => {
    const servers = Object.values(adapt(SHIPPED).apps.http.servers) as { routes: any[] }[];
    const routes = servers.flatMap((s) => s.routes);
    const catchAll = routes.find((r) => !r.match);
    const proxy = JSON.stringify(catchAll);
    const varnish = /upstream linkpage_varnish \{[^}]*server [^:\s]+:(\d+)/.exec(
      readFileSync(path.join(ROOT, 'ops/deploy/nginx/linkpage.conf'), 'utf8'),
    )?.[1];
    expect(proxy).to.include(`:${varnish}"`);
    expect(proxy, 'no Host rewrite').not.to.match(/"Host"/);
  });

  it("makes a loopback copy for the topology test: admin off, Caddy's own CA, 127.0.0.1 only", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkpage-caddyfile-'));
    try {
      const file = path.join(dir, 'Caddyfile');
      const text = await caddyfileFor({
        ask: 'http://127.0.0.1:3001/_/domain-check',
        varnish: { host: '127.0.0.1', port: 6081 },
        httpPort: 18080,
        httpsPort: 18443,
      });
      writeFileSync(file, text);
      const json = adapt(file);
      expect(json.admin.disabled).to.equal(true);
      expect(json.apps.tls.automation.policies).to.deep.equal([{ issuers: [{ module: 'internal' }], on_demand: true }]);
      const servers = Object.values(json.apps.http.servers) as { listen: string[] }[];
      expect(servers.flatMap((s) => s.listen)).to.deep.equal(['127.0.0.1:18443']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
