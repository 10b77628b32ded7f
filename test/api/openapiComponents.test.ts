import { expect } from 'chai';
import { EVENT_TYPES } from '../../core/events.js';
import { app } from '../helpers/hooks.js';

describe('GET /openapi.json: named schemas, headers and webhooks', () => {
  let doc: any;
  before(async () => {
    doc = await (await fetch(`${app().url}/openapi-3.1.json`)).json();
  });

  it('names every resource and each block type in components, and refers to them by $ref', () => {
    const names = Object.keys(doc.components.schemas);
    for (const type of ['Link', 'Social', 'SocialRow', 'Embed', 'Messenger', 'Text']) {
      expect(names).to.include.members([`${type}Block`, `${type}BlockInput`, `New${type}Block`]);
    }
    expect(names).to.include.members(['Page', 'Block', 'Account', 'ApiKey', 'Webhook', 'Delivery', 'Stats', 'Me']);
    expect(doc.paths['/api/profiles/{id}'].get.responses['200'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/Page',
    });
    expect(doc.components.schemas.Page.properties.blocks.items).to.deep.equal({ $ref: '#/components/schemas/Block' });
  });

  it('declares If-Match on every change of a page and ETag on every answer that carries a page version', () => {
    const ifMatch = { $ref: '#/components/parameters/If-Match' };
    const etag = { $ref: '#/components/headers/ETag' };
    for (const [path, method] of [
      ['/api/profiles/{id}', 'patch'],
      ['/api/profiles/{id}', 'put'],
      ['/api/profiles/{id}', 'delete'],
      ['/api/profiles/{id}/versions/{n}/restore', 'post'],
    ]) {
      expect(doc.paths[path][method].parameters, `${method} ${path}`).to.deep.include(ifMatch);
    }
    expect(doc.paths['/api/profiles/{id}'].get.responses['200'].headers.ETag).to.deep.equal(etag);
    expect(doc.paths['/api/profiles/{id}'].patch.responses['200'].headers.ETag).to.deep.equal(etag);
    expect(doc.paths['/api/agent/pages'].post.parameters).to.deep.include({
      $ref: '#/components/parameters/Idempotency-Key',
    });
    expect(doc.paths['/api/keys'].post.parameters).to.deep.include({ $ref: '#/components/parameters/X-CSRF-Token' });
  });

  it('declares the rate-limit headers under the names a limited answer carries, and Retry-After on 429', async () => {
    const limited = doc.paths['/api/username/check'].get.responses;
    expect(Object.keys(limited['200'].headers)).to.have.members([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    expect(limited['429'].headers).to.include.keys('Retry-After', 'RateLimit-Limit');
    const res = await fetch(`${app().url}/api/username/check?u=someone`);
    for (const name of Object.keys(limited['200'].headers)) expect(res.headers.get(name), name).to.match(/^\d+$/);
  });

  it('types the days of the statistics as an integer from 1 to 365', () => {
    const days = doc.paths['/api/profiles/{id}/stats'].get.parameters.find((p: any) => p.name === 'days');
    expect(days.schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 365 });
  });

  it('describes each webhook event with its body and the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks)).to.have.members([...EVENT_TYPES]);
    const event = doc.webhooks['page.published'].post;
    expect(event.requestBody.content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/PagePublishedEvent',
    });
    expect(event.parameters.map((p: any) => p.name)).to.deep.equal([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });
});
