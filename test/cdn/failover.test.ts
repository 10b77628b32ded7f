/**
 * Varnish with the shipped VCL in front of two routers, one of which fails: a visitor's GET or
 * HEAD is asked of the other router, so no visitor sees the failure, also before the health
 * probe has marked the failing router sick. Two servers on 127.0.0.1 stand in for the routers:
 * each answers /healthz (the probe) and names itself on every page.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { hostRequest } from '../helpers/client.js';
import { startVarnish, type Varnish } from '../helpers/varnish.js';

type Mode =
  | 'answers'
  | 'answers 503'
  | 'answers 503 once per request'
  | 'answers 503 twice per request'
  | 'drops the connection'
  | 'holds the request';

interface StandIn {
  name: string;
  port: number;
  mode: Mode;
  /** Page requests it took (not the probe's). */
  taken: number;
  /** How many times it took each page request, by host and path. */
  seen: Map<string, number>;
  /** Health probes still to answer only after the probe's timeout. */
  probesHeld: number;
  /** Stops listening: connections are refused from then on. */
  kill(): Promise<void>;
}

async function standIn(name: string): Promise<StandIn> {
  const server = http.createServer((req, res) => {
    if (req.url === '/healthz') {
      // Past the probe's 1 s timeout, as a busy machine's first probe can be.
      const wait = router.probesHeld > 0 ? 1_500 : 0;
      router.probesHeld = Math.max(0, router.probesHeld - 1);
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n'), wait);
      return;
    }
    router.taken++;
    const asked = router.seen.get(`${req.headers.host}${req.url}`) ?? 0;
    router.seen.set(`${req.headers.host}${req.url}`, asked + 1);
    // As a router starting again does: its /healthz answers, pages wait until it is ready.
    if (router.mode === 'holds the request') return;
    if (router.mode === 'drops the connection') {
      req.socket.destroy();
      return;
    }
    if (
      router.mode === 'answers 503' ||
      (router.mode === 'answers 503 once per request' && asked < 1) ||
      (router.mode === 'answers 503 twice per request' && asked < 2)
    ) {
      res
        .writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5', 'cache-control': 'no-store' })
        .end('503\n');
      return;
    }
    // The page of "kept" is kept a second, then stays in Varnish's grace (a day).
    const kept = req.headers.host?.startsWith('kept.')
      ? { 'surrogate-control': 'max-age=1', 'cache-control': 'public, max-age=1' }
      : { 'cache-control': 'no-store' };
    res.writeHead(200, { 'content-type': 'text/plain', ...kept }).end(`${name}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const router: StandIn = {
    name,
    port: (server.address() as AddressInfo).port,
    mode: 'answers',
    probesHeld: 0,
    taken: 0,
    seen: new Map(),
    async kill() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
  return router;
}

describe('Varnish in front of two routers, one failing (ops/deploy/varnish/default.vcl) @slow', function () {
  this.timeout(60_000);
  let varnish: Varnish;
  let a: StandIn;
  let b: StandIn;

  beforeEach(async () => {
    a = await standIn('router-a');
    b = await standIn('router-b');
    varnish = await startVarnish({
      routers: [a, b].map((r) => ({ host: '127.0.0.1', port: r.port })),
      pageDomain: 'pages.test',
    });
  });
  afterEach(async () => {
    await varnish?.stop();
    await a?.kill().catch(() => {});
    await b?.kill().catch(() => {});
  });

  /** 40 visitors' requests, one after the other: pages (each a miss) and short paths (each passed), GET and HEAD. */
  async function visit(): Promise<{ errors: string[]; servedBy: Set<string> }> {
    const errors: string[] = [];
    const servedBy = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const path = i % 2 === 0 ? '/' : `/short${i}`;
      const method = i % 4 === 3 ? 'HEAD' : 'GET';
      const res = await hostRequest(varnish.port, `visitor${i}.pages.test`, path, { method });
      if (res.status !== 200) errors.push(`${method} ${path}: ${res.status}`);
      if (res.text) servedBy.add(res.text.trim());
    }
    return { errors, servedBy };
  }

  it('spreads requests over both routers while both answer', async () => {
    const { errors, servedBy } = await visit();
    expect(errors).to.deep.equal([]);
    expect([...servedBy].sort()).to.deep.equal(['router-a', 'router-b']);
  });

  it('answers every request from the other router when one answers 503 (the probe still finds it healthy)', async () => {
    a.mode = 'answers 503';
    const { errors, servedBy } = await visit();
    expect(errors).to.deep.equal([]);
    expect(a.taken, 'the failing router was asked').to.be.greaterThan(0);
    expect([...servedBy]).to.deep.equal(['router-b']);
  });

  it('answers every request from the other router when one drops its connections (the probe still finds it healthy)', async () => {
    a.mode = 'drops the connection';
    const { errors } = await visit();
    expect(errors).to.deep.equal([]);
    expect(a.taken, 'the failing router was asked').to.be.greaterThan(0);
  });

  it('answers from the other router when one holds a request 5 s without answering, as a router starting again does', async () => {
    a.mode = 'holds the request';
    const servedBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await hostRequest(varnish.port, `held${i}.pages.test`, i % 2 === 0 ? '/' : `/short${i}`);
      expect(res.status, `request ${i}`).to.equal(200);
      servedBy.add(res.text.trim());
    }
    expect(a.taken, 'the holding router was asked').to.be.greaterThan(0);
    expect([...servedBy]).to.deep.equal(['router-b']);
  });

  it('answers pages from its start, before any probe has answered: the routers count as healthy until probes fail', async () => {
    await varnish.stop();
    a.probesHeld = 1;
    b.probesHeld = 1;
    varnish = await startVarnish({
      routers: [a, b].map((r) => ({ host: '127.0.0.1', port: r.port })),
      pageDomain: 'pages.test',
    });
    // Both first probes have come and are held: no router has answered one yet.
    for (let i = 0; a.probesHeld + b.probesHeld > 0; i++) {
      if (i > 250) throw new Error('Varnish sent no probe within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { errors } = await visit();
    expect(errors).to.deep.equal([]);
  });

  it('serves the last copy of a page when every router answers 503, also past the grace a healthy router gets (10 s), and a 503 with Retry-After when there is none', async () => {
    const first = await hostRequest(varnish.port, 'kept.pages.test', '/');
    expect(first.status).to.equal(200);
    a.mode = 'answers 503';
    b.mode = 'answers 503';
    // Until Varnish itself reports the copy past its second and the 10 s after (its Age), every
    // answer is that copy.
    let age = 0;
    while (age <= 12) {
      const stale = await hostRequest(varnish.port, 'kept.pages.test', '/');
      expect(stale.status, `at Age ${stale.headers.age}`).to.equal(200);
      expect(stale.text).to.equal(first.text);
      age = Number(stale.headers.age);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const none = await hostRequest(varnish.port, 'never-kept.pages.test', '/');
    expect(none.status).to.equal(503);
    expect(none.headers['retry-after']).to.equal('5');
    expect(none.headers['cache-control']).to.equal('no-store');
  });

  it('answers every request when one router is killed, before and after the probe marks it sick', async () => {
    expect((await visit()).servedBy.size).to.equal(2);
    await a.kill();
    const { errors, servedBy } = await visit();
    expect(errors).to.deep.equal([]);
    expect([...servedBy]).to.deep.equal(['router-b']);
  });

  it('answers every request when one router is killed and the other fails each request once, before the probe marks the killed one sick', async () => {
    b.mode = 'answers 503 once per request';
    await a.kill();
    // Within the probe's first two seconds: the killed router still counts as healthy.
    const { errors, servedBy } = await visit();
    expect(errors).to.deep.equal([]);
    expect(b.taken, 'the failing router was asked first for some').to.be.greaterThan(40);
    expect([...servedBy]).to.deep.equal(['router-b']);
  });

  it('answers every request when one router is killed and marked sick, and the other fails each request twice', async () => {
    await a.kill();
    for (let i = 0; !varnish.sick('router1'); i++) {
      if (i > 500) throw new Error('the probe did not mark the killed router sick within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    b.mode = 'answers 503 twice per request';
    const { errors, servedBy } = await visit();
    expect(errors, await varnish.failures()).to.deep.equal([]);
    expect(b.taken, 'each request asked of the live router three times').to.equal(3 * 40);
    expect([...servedBy]).to.deep.equal(['router-b']);
  });
});
