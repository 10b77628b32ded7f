import { expect } from 'chai';
import { EVENT_TYPES } from '../../core/events.js';
import { app } from '../helpers/hooks.js';
import { dereference, schemaValidator } from '../helpers/openapi.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('openapi.json examples', () => {
  let doc: any;
  before(async () => {
    doc = dereference(await (await fetch(`${app().url}/openapi-3.1.json`)).json());
  });

  function operations(section: Record<string, any>) {
    return Object.entries(section).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ name: `${m} ${path}`, op: item[m] })),
    );
  }

  function expectValid(schema: unknown, example: unknown, what: string) {
    const validate = schemaValidator(schema as object);
    expect(validate(example), `${what}: ${JSON.stringify(validate.errors)}`).to.equal(true);
  }

  it('gives every operation an example of its request body and of every answer with a body', () => {
    const ops = operations(doc.paths);
    expect(ops.length).to.be.greaterThan(30);
    for (const { name, op } of ops) {
      const body = op.requestBody?.content?.['application/json'];
      if (body) expect(body.example, `${name} request`).to.not.equal(undefined);
      for (const [status, res] of Object.entries<any>(op.responses)) {
        for (const [type, media] of Object.entries<any>(res.content ?? {})) {
          expect(media.example, `${name} ${status} ${type}`).to.not.equal(undefined);
        }
      }
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') expect(p.example, `${name} parameter ${p.name}`).to.not.equal(undefined);
      }
    }
  });

  it('has every example of a request or an answer match its own schema', () => {
    for (const { name, op } of operations(doc.paths)) {
      for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
        if (media.example !== undefined) expectValid(media.schema, media.example, `${name} request ${type}`);
      }
      for (const [status, res] of Object.entries<any>(op.responses)) {
        for (const [type, media] of Object.entries<any>(res.content ?? {})) {
          expectValid(media.schema, media.example, `${name} ${status} ${type}`);
        }
      }
      for (const p of op.parameters ?? []) {
        if (p.example !== undefined) expectValid(p.schema, p.example, `${name} parameter ${p.name}`);
      }
    }
  });

  it('has every webhook event carry an example body that matches its schema', () => {
    const events = operations(doc.webhooks);
    expect(events.map((e) => e.name.split(' ')[1])).to.have.members([...EVENT_TYPES]);
    for (const { name, op } of events) {
      const media = op.requestBody.content['application/json'];
      expectValid(media.schema, media.example, name);
    }
  });
});
