import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { apiRoutes } from '../../api/app.js';
import { app } from '../helpers/hooks.js';

describe('GET /openapi.json: OpenAPI 3.0.3, as the contract names it', () => {
  let doc: any;
  let doc31: any;
  before(async () => {
    doc = await (await fetch(`${app().url}/openapi.json`)).json();
    doc31 = await (await fetch(`${app().url}/openapi-3.1.json`)).json();
  });

  it('is a valid OpenAPI 3.0.3 document, as swagger-parser and a second validator read it', async () => {
    expect(doc.openapi).to.equal('3.0.3');
    await SwaggerParser.validate(structuredClone(doc));
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
  });

  it('has the operations, answers and named schemas of the 3.1 document, with nullable for null', () => {
    const operations = (d: any) =>
      Object.entries(d.paths).flatMap(([p, ops]) =>
        Object.entries(ops as object).map(([method, op]) => `${method} ${p} ${Object.keys(op.responses).join(',')}`),
      );
    expect(operations(doc)).to.deep.equal(operations(doc31));
    expect(Object.keys(doc.components.schemas)).to.deep.equal(Object.keys(doc31.components.schemas));
    expect(JSON.stringify(doc)).to.not.match(/"type":\s*"null"|"const":/);
    expect(JSON.stringify(doc)).to.include('"nullable":true');
    expect(doc.webhooks).to.equal(undefined);
  });
});

describe('GET /openapi-3.1.json', () => {
  let doc: any;
  before(async () => {
    doc = await (await fetch(`${app().url}/openapi-3.1.json`)).json();
  });

  it('is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  it('describes every route the API serves, with its request body and the error object', () => {
    for (const r of apiRoutes(app().services)) {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method];
      expect(op, `${r.method} ${r.path}`).to.be.an('object');
      if (['post', 'patch', 'put'].includes(r.method) && r.body) {
        expect(op.requestBody.content['application/json'].schema, `${r.method} ${r.path}`).to.be.an('object');
      }
    }
    expect(doc.components.schemas.Error.properties.code.enum).to.include.members([
      'invalid_fields',
      'not_found',
      'rate_limited',
    ]);
  });

  it('declares 413 too_large and 400 on every route that takes a body, as the body reader answers them', async () => {
    for (const r of apiRoutes(app().services)) {
      if (!['post', 'patch', 'put'].includes(r.method)) continue;
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method];
      expect(op.responses, `${r.method} ${r.path}`).to.include.keys('400', '413');
    }
  });

  it('covers every endpoint of the API', () => {
    const expected = [
      ['get', '/api/username/check'],
      ['post', '/api/agent/pages'],
      ['post', '/api/agent/pages/validate'],
      ['get', '/api/agent/me'],
      ['post', '/api/agent/claim-link'],
      ['get', '/api/claim/{token}'],
      ['get', '/api/profiles'],
      ['post', '/api/profiles'],
      ['get', '/api/profiles/{id}'],
      ['patch', '/api/profiles/{id}'],
      ['put', '/api/profiles/{id}'],
      ['delete', '/api/profiles/{id}'],
      ['get', '/api/profiles/{id}/stats'],
      ['get', '/api/account'],
      ['patch', '/api/account'],
      ['get', '/api/account/export'],
      ['get', '/api/keys'],
      ['post', '/api/keys'],
      ['delete', '/api/keys/{id}'],
    ];
    for (const [method, path] of expected) expect(doc.paths[path]?.[method], `${method} ${path}`).to.be.an('object');
  });

  it('marks the routes that need a key, and the two that do not', () => {
    expect(doc.paths['/api/profiles'].get.security).to.deep.equal([{ apiKey: [] }]);
    expect(doc.paths['/api/username/check'].get.security).to.deep.equal([]);
    expect(doc.paths['/api/agent/pages'].post.security).to.deep.equal([{}, { apiKey: [] }]);
  });
});
