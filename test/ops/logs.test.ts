import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../ops/start/logger.js';
import { fsStorage } from '../../platform/store/objects.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { pageRequest } from '../helpers/client.js';
import { buildCreateRequest } from '../helpers/factories.js';

/** The app's log lines, parsed, as they are written. */
function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const to = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, to };
}

describe('request ids in answers and logs', () => {
  let own: TestApp;
  const { lines, to } = logCollector();
  before(async () => {
    // Storage that refuses every write (a folder under a file), so a publish logs a warning.
    own = await startApp({ log: createLogger('info', { pretty: false, to }), storage: fsStorage('/dev/null/pages') });
  });
  after(() => own.close());

  it('sends back the X-Request-Id it was given, and a new one when none or a bad one came', async () => {
    const given = await fetch(`${own.url}/healthz-not`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(given.headers.get('x-request-id')).to.equal('lb-7f3a.42');
    const none = await fetch(`${own.url}/healthz-not`);
    expect(none.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const bad = await fetch(`${own.url}/healthz-not`, { headers: { 'x-request-id': 'two words\tand a tab' } });
    expect(bad.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('puts the id on every line written while the request is handled, in any layer', async () => {
    const before = lines.length;
    const res = await fetch(`${own.url}/api/agent/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.7.7' },
      body: JSON.stringify(buildCreateRequest()),
    });
    expect(res.status).to.equal(201);
    const id = res.headers.get('x-request-id');
    const failures = lines.slice(before).filter((l) => l.msg === 'publish failed; will retry');
    expect(failures, 'the publisher (renderer/) logged its failure').to.not.deep.equal([]);
    // Its line is the request's (a retry of another page's publish may log beside it, with none).
    expect(failures.map((l) => l.reqId)).to.include(id);
    const access = lines.find((l) => l.reqId === id && l.route === '/api/agent/pages');
    expect(access).to.include({ method: 'POST', status: 201, level: 30 });
    expect(access!.msg).to.match(/^POST \/api\/agent\/pages 201 [\d.]+ ms$/);
  });

  it('never writes a path no route matched: a claim token sent with the wrong method stays out of the log', async () => {
    const before = lines.length;
    for (const [method, path] of [
      ['DELETE', '/claim/SECRETTOKEN1'],
      ['PUT', '/api/claim/SECRETTOKEN2'],
      ['OPTIONS', '/claim/SECRETTOKEN3'],
    ]) {
      await fetch(`${own.url}${path}`, { method });
    }
    const written = JSON.stringify(lines.slice(before));
    expect(written).to.include('"route":"unmatched"');
    expect(written).not.to.match(/SECRETTOKEN/);
  });

  it('writes no request id on lines outside any request', async () => {
    // A page of its own whose publish fails (storage refuses writes) and waits in the outbox.
    const res = await fetch(`${own.url}/api/agent/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.7.8' },
      body: JSON.stringify(buildCreateRequest()),
    });
    expect(res.status).to.equal(201);
    const before = lines.length;
    own.clock.advance(60_000); // past the failed publish's backoff: the outbox retries it now
    await own.services.publisher.drain();
    const retried = lines.slice(before).find((l) => l.msg === 'publish failed; will retry');
    expect(retried, 'the retry logged its failure').to.not.equal(undefined);
    expect(retried).to.not.have.property('reqId');
  });
});

describe('request ids of pages (cached, shared answers)', () => {
  let own: TestApp;
  const { lines, to } = logCollector();
  before(async () => {
    own = await startApp({ log: createLogger('debug', { pretty: false, to }) });
  });
  after(() => own.close());

  it('sends none; the access line carries one on Node 24, where AsyncLocalStorage costs promises nothing', async () => {
    const answer = await pageRequest('nobody-here', '/', { app: own });
    expect(answer.status).to.equal(404);
    expect(answer.headers['x-request-id'], 'a shared answer names no request').to.equal(undefined);
    const access = lines.find((l) => l.route === 'page' && l.status === 404);
    expect(access, 'the page host wrote its access line').to.not.equal(undefined);
    const node = Number(process.versions.node.split('.')[0]);
    if (node >= 24) expect(access!.reqId).to.match(/^[0-9a-f-]{36}$/);
    else expect(access).to.not.have.property('reqId');
  });
});
