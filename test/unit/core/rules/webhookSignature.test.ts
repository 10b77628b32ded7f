import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signature, signatureHeaders, webhookKey } from '../../../../core/rules/webhookSignature.js';

describe('webhook signatures (core/rules/webhookSignature.ts)', () => {
  it('makes secrets of whsec_ and the standard base64 of 32 bytes, a new one each time', () => {
    const a = newWebhookSecret();
    expect(a).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookKey(a)).to.have.length(32);
    expect(newWebhookSecret()).to.not.equal(a);
  });

  it('keys the HMAC with the bytes the secret decodes to, a secret made before (base64url) included', () => {
    const bytes = Buffer.from('0123456789abcdef0123456789abcdef');
    expect(webhookKey(`whsec_${bytes.toString('base64')}`).equals(bytes)).to.equal(true);
    expect(webhookKey(`whsec_${bytes.toString('base64url')}`).equals(bytes)).to.equal(true);
  });

  it('signs "<id>.<timestamp>.<body>" with HMAC-SHA256, in base64', () => {
    const secret = newWebhookSecret();
    const expected = createHmac('sha256', webhookKey(secret)).update('evt_1.1700000000.{"a":1}').digest('base64');
    expect(signature(secret, 'evt_1', 1700000000, '{"a":1}')).to.equal(expected);
    expect(signature(secret, 'evt_1', 1700000001, '{"a":1}')).to.not.equal(expected);
    expect(signature(secret, 'evt_2', 1700000000, '{"a":1}')).to.not.equal(expected);
  });

  it('sends one "v1,<base64>" per secret, space-separated, in the order given, as the standardwebhooks library signs', () => {
    const [s1, s2] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date(1700000000_000);
    const headers = signatureHeaders([s1, s2], 'evt_1', 1700000000, '{}');
    expect(headers).to.deep.equal({
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': `${new Webhook(s1).sign('evt_1', at, '{}')} ${new Webhook(s2).sign('evt_1', at, '{}')}`,
    });
    expect(signatureHeaders([], 'evt_1', 1700000000, '{}')['webhook-signature']).to.equal('');
  });

  it('is verified by the standardwebhooks library with either secret, and by no other', () => {
    const [s1, s2] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"id":"evt_1","type":"page.published"}';
    const headers = signatureHeaders([s1, s2], 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(s1).verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(new Webhook(s2).verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).to.throw(/No matching signature/);
  });
});
