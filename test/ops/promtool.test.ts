/**
 * /metrics as Prometheus reads it: `promtool check metrics` (Debian's prometheus package), so this
 * file is in the system tier (test/tiers.cjs). test/ops/metrics.test.ts checks the series themselves.
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { startApp } from '../helpers/app.js';
import { pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics, read by promtool', () => {
  const own = ownApp({ start: () => startApp({ env: { METRICS_TOKEN: TOKEN } }) });

  it('passes `promtool check metrics` after the API and a page host have answered', async () => {
    const { page } = await createAgentAccount();
    await pageRequest(page.username, '/');
    const res = await fetch(`${own().url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).to.equal(200);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: await res.text(), encoding: 'utf8' });
    expect(check.error, 'promtool is installed (Debian: prometheus)').to.equal(undefined);
    expect(`${check.stdout}${check.stderr}`.trim()).to.equal('');
    expect(check.status).to.equal(0);
  });
});
