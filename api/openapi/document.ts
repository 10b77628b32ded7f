/**
 * openapi.json, generated from the same route declarations and valibot schemas that serve and
 * validate requests (OpenAPI 3.0.3, info.version 1.0.0).
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { Config } from '../../core/config.js';
import { ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { operationLimits } from '../../core/operations.js';
import { LIMITS } from '../../core/rules/limits.js';
import { ErrorObject } from '../../core/schemas/responses.js';
import type { AnyRoute } from '../route.js';

type Json = Record<string, unknown>;

function schemaOf(schema: v.GenericSchema): Json {
  return tidy(toJsonSchema(schema, { target: 'openapi-3.0', errorMode: 'ignore' })) as Json;
}

/** OpenAPI 3.0 wants `required` left out rather than empty (objects whose fields are all optional). */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, value] of Object.entries(node)) {
    if (k === 'required' && Array.isArray(value) && value.length === 0) continue;
    out[k] = tidy(value);
  }
  return out;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: { type: 'integer' } },
};

export function buildOpenApi(routes: readonly AnyRoute[], config: Pick<Config, 'baseUrl'>): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][r.method] = operation(r);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Link-in-bio page service',
      version: '1.0.0',
      description:
        'Create and edit link-in-bio pages. POST /api/agent/pages needs no key and returns one. Every error is the Error object; clients branch on code.',
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'Create and discover' },
      { name: 'Pages' },
      { name: 'Images and imports' },
      { name: 'Account' },
      { name: 'Webhooks' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_sk_ followed by 43 URL-safe characters' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lp_session',
          description: 'Dashboard session (browser only); writes also need the X-CSRF-Token header.',
        },
      },
      schemas: { Error: schemaOf(ErrorObject) },
    },
  };
}

function operation(r: AnyRoute): Json {
  const parameters: Json[] = [];
  for (const name of r.path.match(/:([A-Za-z]+)/g) ?? []) {
    parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  }
  if (r.query) {
    const q = schemaOf(r.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
    }
  }
  for (const h of r.headers ?? []) {
    parameters.push({
      name: h.name,
      in: 'header',
      required: false,
      description: h.description,
      schema: { type: 'string' },
    });
  }

  const responses: Record<string, Json> = {};
  for (const res of r.responses) {
    responses[String(res.status)] = {
      description: res.description,
      ...(res.schema && { content: { [res.contentType ?? 'application/json']: { schema: schemaOf(res.schema) } } }),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  const limits = operationLimits(r.operation);
  const limitCodes = limits.map((l) => LIMITS[l.name].code);
  // Every body is read by edge/body.ts before the route sees it: one over 1 MB is too_large and
  // one that is not JSON invalid_fields, whatever the route declares.
  const bodyCodes: ErrorCode[] = ['post', 'put', 'patch'].includes(r.method) ? ['too_large', 'invalid_fields'] : [];
  // Any route may find the database or storage down for a moment: 503 unavailable.
  for (const code of new Set([...r.errors, ...limitCodes, ...bodyCodes, 'unavailable' as const])) {
    const status = ERROR_CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error: ${codes.join(', ')}`,
      ...(status === 429 && { headers: { 'Retry-After': { schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS } }),
      ...(status === 503 && { headers: { 'Retry-After': { schema: { type: 'integer' } } } }),
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  if (limits.length > 0) {
    for (const res of r.responses) responses[String(res.status)].headers = RATE_LIMIT_HEADERS;
  }

  return {
    tags: [r.tag],
    summary: r.summary,
    ...(r.description && { description: r.description }),
    operationId: `${r.method}${r.path.replace(/[:/{}-]+(\w)/g, (_, c: string) => c.toUpperCase())}`,
    security: security(r.auth),
    ...(parameters.length > 0 && { parameters }),
    ...(r.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: schemaOf(r.body) },
          ...(r.multipart && { 'multipart/form-data': { schema: r.multipart } }),
        },
      },
    }),
    responses,
  };
}

function security(auth: AnyRoute['auth']): Json[] {
  switch (auth) {
    case 'none':
      return [];
    case 'key':
      return [{ apiKey: [] }];
    case 'optional-key':
      return [{}, { apiKey: [] }];
    case 'session':
      return [{ session: [] }];
    case 'key-or-session':
      return [{ apiKey: [] }, { session: [] }];
  }
}
