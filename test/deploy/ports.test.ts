/**
 * The shipped deployment files agree on who listens where: the systemd units (ROLE and PORT),
 * the environment example, the unit table and scrape configuration of docs/deploy.md, the
 * Varnish backends and the nginx upstreams. A router backend on the worker's port passes the
 * health probe and answers every page 404, so a disagreement is a silent half outage.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
type Role = 'all' | 'api' | 'router' | 'worker';

/** ROLE and PORT of each unit in deploy/, by unit name. */
function units(): Record<string, { role: Role; port: number }> {
  const found: Record<string, { role: Role; port: number }> = {};
  for (const file of readdirSync(path.join(ROOT, 'ops/deploy')).filter(
    (f) => f.endsWith('.service') && !f.includes('@'),
  )) {
    const text = read(`ops/deploy/${file}`);
    const role = /^Environment=.*\bROLE=(\w+)/m.exec(text)?.[1] as Role | undefined;
    const port = /^Environment=.*\bPORT=(\d+)/m.exec(text)?.[1];
    expect(role && port, `${file} sets ROLE and PORT`).to.be.ok;
    found[file] = { role: role!, port: Number(port) };
  }
  return found;
}

/** The port of the unit that runs `role` on its own (linkpage-<role>.service), or linkpage.service for all. */
function portOf(role: Role): number {
  const all = Object.values(units()).filter((u) => u.role === role);
  expect(all, `one unit runs ${role}`).to.have.length(1);
  return all[0].port;
}

/** The ports of `server host:port;` lines in an nginx upstream block. */
function upstream(conf: string, name: string): number[] {
  const block = new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(conf)?.[1];
  expect(block, `nginx upstream ${name}`).to.be.a('string');
  return [...block!.matchAll(/^\s*server\s+[^:\s]+:(\d+)/gm)].map((m) => Number(m[1]));
}

/** A unit's settings: its lines but comments, blank lines and Description. */
function settings(file: string): string[] {
  return read(file)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#') && !line.startsWith('Description='));
}

describe('the deployment files agree on roles and ports (deploy/)', () => {
  for (const role of ['router', 'worker']) {
    it(`makes linkpage-${role}@<port> the ${role} unit on the port its instance names, alike in all else`, () => {
      const plain = settings(`ops/deploy/linkpage-${role}.service`);
      const template = settings(`ops/deploy/linkpage-${role}@.service`);
      const port = `Environment=ROLE=${role} PORT=${portOf(role as Role)}`;
      expect(plain).to.include(port);
      expect(template).to.deep.equal(plain.map((line) => (line === port ? `Environment=ROLE=${role} PORT=%i` : line)));
      expect(read(`ops/deploy/linkpage-${role}@.service`)).to.match(/^Description=.*%i/m);
    });
  }

  it('gives every unit a role of its own, the split roles each a port of their own', () => {
    const u = units();
    expect(
      Object.values(u)
        .map((x) => x.role)
        .sort(),
    ).to.deep.equal(['all', 'api', 'router', 'worker']);
    const split = ['api', 'router', 'worker'].map((r) => portOf(r as Role));
    expect(new Set(split).size, `api, router, worker ports ${split}`).to.equal(3);
  });

  it("says the units' ports in the environment example as the units set them", () => {
    const line = /^# PORT=\d+ .*\(all and api (\d+), router (\d+), worker (\d+) in the units\)$/m.exec(
      read('ops/deploy/linkpage.env.example'),
    );
    expect(line, 'the PORT line of linkpage.env.example').to.not.equal(null);
    expect(line!.slice(1).map(Number)).to.deep.equal([portOf('api'), portOf('router'), portOf('worker')]);
    expect(portOf('all')).to.equal(portOf('api'));
  });

  it('lists in docs/deploy.md the role and port each unit sets', () => {
    const doc = read('docs/deploy.md');
    for (const [file, { role, port }] of Object.entries(units())) {
      expect(doc, file).to.include(`| \`${file}\` | \`${role}\` | ${port}`);
    }
  });

  it("points every Varnish backend at the router unit's port", () => {
    const vcl = read('ops/deploy/varnish/default.vcl');
    const ports = [...vcl.matchAll(/^backend \w+ \{[^}]*\.port = "(\d+)"/gm)].map((m) => Number(m[1]));
    expect(ports, 'the VCL has router backends').to.not.deep.equal([]);
    for (const port of ports) expect(port, 'a VCL backend').to.equal(portOf('router'));
  });

  it("sends nginx's apex to the API unit's port, /media/ to the routers' and page hosts to Varnish", () => {
    const conf = read('ops/deploy/nginx/linkpage.conf');
    expect(upstream(conf, 'linkpage_api')).to.satisfy((ports: number[]) => ports.every((p) => p === portOf('api')));
    expect(upstream(conf, 'linkpage_routers')).to.satisfy((ports: number[]) =>
      ports.every((p) => p === portOf('router')),
    );
    const varnishUrl = /^# VARNISH_URLS=http:\/\/[^:]+:(\d+)/m.exec(read('ops/deploy/linkpage.env.example'))?.[1];
    expect(upstream(conf, 'linkpage_varnish')).to.deep.equal([Number(varnishUrl)]);
  });

  it("scrapes each role in docs/deploy.md's Prometheus example on its unit's port", () => {
    const doc = read('docs/deploy.md');
    const groups = [...doc.matchAll(/- targets: \[([^\]]*)\]\s*\n\s*labels: \{ role: (\w+) \}/g)];
    expect(groups).to.have.length(3);
    for (const [, targets, role] of groups) {
      for (const [, port] of targets.matchAll(/:(\d+)'/g)) expect(Number(port), role).to.equal(portOf(role as Role));
    }
  });
});
