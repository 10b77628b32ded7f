import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { newWebhookSecret, signature, signatureHeader } from '../../../../core/rules/webhookSignature.js';

describe('webhook signatures (core/rules/webhookSignature.ts)', () => {
  it('makes secrets of whsec_ and 43 base64url characters, a new one each time', () => {
    const a = newWebhookSecret();
    expect(a).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).to.not.equal(a);
  });

  it('signs "<t>.<body>" with HMAC-SHA256, in hex', () => {
    const expected = createHmac('sha256', 'whsec_k').update('1700000000.{"a":1}').digest('hex');
    expect(signature('whsec_k', 1700000000, '{"a":1}')).to.equal(expected);
    expect(signature('whsec_k', 1700000001, '{"a":1}')).to.not.equal(expected);
  });

  it('sends t first, then one v1 per secret in the order given', () => {
    const body = '{}';
    expect(signatureHeader(['s1', 's2'], 42, body)).to.equal(
      `t=42,v1=${signature('s1', 42, body)},v1=${signature('s2', 42, body)}`,
    );
    expect(signatureHeader([], 42, body)).to.equal('t=42');
  });
});
