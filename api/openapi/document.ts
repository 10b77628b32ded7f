/**
 * openapi.json (OpenAPI 3.1), generated from the same route declarations and valibot schemas
 * that serve and validate requests: named schemas in components (api/openapi/schemas.ts), the
 * headers clients send and read (headers.ts), the webhook events (webhooks.ts), and an example
 * for every operation, given beside each route.
 */
import type { Config } from '../../core/config.js';
import { ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { operationAccess, operationLimits } from '../../core/operations.js';
import { LIMITS } from '../../core/rules/limits.js';
import type { AnyRoute } from '../route.js';
import { answerHeaders, HEADER_COMPONENTS, parameterRef } from './headers.js';
import { componentSchemas, queryProperties, schemaOf } from './schemas.js';
import { WEBHOOK_SIGNATURE_SCHEME, WEBHOOK_SIGNATURE_SECURITY, webhooksSection } from './webhooks.js';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** A path parameter's example when the route gives none. */
const PARAM_EXAMPLES: Record<string, string> = {
  id: '5c1f0a9e3b7d2e4f6a8b0c1d',
  n: '3',
  token: 'Zb3k9QwErTyUiOpAsDfGhJkLzXcVbNm1234567890ab',
  network: 'github',
  delivery: '7d5b3f1a9c8e6d4b2a0f1e3c',
  proposal: '5c7e9a1b3d5f7a9c0e2d4f6b',
};

export function buildOpenApi(routes: readonly AnyRoute[], config: Pick<Config, 'baseUrl'>): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Link-in-bio page service',
      version: '1.0.0',
      description:
        'Create and edit link-in-bio pages. POST /api/agent/pages needs no key and returns one. Every error is the Error object; clients branch on code.',
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      {
        name: 'Create and discover',
        description: 'Check a name, validate a page, and create an account with its first page and key in one call.',
      },
      { name: 'Pages', description: 'Read, change and delete pages, and see their statistics.' },
      { name: 'Images and imports', description: 'Upload pictures and import links or a profile from elsewhere.' },
      { name: 'Account', description: 'The account behind the key: its pages, limits, keys and export.' },
      { name: 'History', description: "A page's saved versions, restoring one, and undoing what one key did." },
      {
        name: 'Proposals',
        description: 'Changes a contributor proposed, for an owner or editor to approve or decline.',
      },
      {
        name: 'Members',
        description: 'People who work on the account with a role, and invitations by e-mail to become one.',
      },
      { name: 'Webhooks', description: 'Endpoints that hear about pages as they change, signed as Standard Webhooks.' },
      { name: 'Domains', description: 'A custom domain for a page: attach it, check it, detach it.' },
    ],
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_sk_ followed by 43 URL-safe characters' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lp_session',
          description: 'Dashboard session (browser only); writes also need the X-CSRF-Token header.',
        },
        [WEBHOOK_SIGNATURE_SCHEME]: WEBHOOK_SIGNATURE_SECURITY,
      },
      ...HEADER_COMPONENTS,
      schemas: componentSchemas(),
    },
  };
}

function operation(r: AnyRoute): Json {
  const parameters: Json[] = [];
  for (const name of r.path.match(/:([A-Za-z]+)/g) ?? []) {
    const key = name.slice(1);
    const example = r.example?.params?.[key] ?? PARAM_EXAMPLES[key];
    parameters.push({ name: key, in: 'path', required: true, schema: { type: 'string' }, example });
  }
  if (r.query) {
    const q = queryProperties(r.query);
    for (const [name, schema] of Object.entries(q.properties)) {
      const example = r.example?.query?.[name];
      parameters.push({
        name,
        in: 'query',
        required: q.required.includes(name),
        schema,
        ...(example !== undefined && { example }),
      });
    }
  }
  for (const h of r.headers ?? []) parameters.push(parameterRef(h));
  const viaSession = r.auth === 'session' || r.auth === 'key-or-session';
  if (viaSession && r.method !== 'get') parameters.push(parameterRef('X-CSRF-Token'));

  const limits = operationLimits(r.operation);
  const responses: Record<string, Json> = {};
  for (const res of r.responses) {
    const headers = answerHeaders({ own: res.headers, limited: limits.length > 0 });
    const media = res.schema && {
      schema: schemaOf(res.schema),
      ...(res.example !== undefined && { example: res.example }),
    };
    responses[String(res.status)] = {
      description: res.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(media && { content: { [res.contentType ?? 'application/json']: media } }),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  const limitCodes = limits.map((l) => LIMITS[l.name].code);
  // Every body is read by platform/edge/body.ts before the route sees it: one over 1 MB is too_large and
  // one that is not JSON invalid_fields, whatever the route declares.
  const bodyCodes: ErrorCode[] =
    ['post', 'put', 'patch'].includes(r.method) || r.body ? ['too_large', 'invalid_fields'] : [];
  // The role check (api/route.ts authorizeRoute): a key, or a member's session, below the operation's
  // role is forbidden, and a page the caller does not reach is not_found.
  const access = r.operation && r.auth !== 'none' ? operationAccess(r.operation) : undefined;
  const roleCodes: ErrorCode[] = [
    ...(access && access.role !== 'viewer' ? ['forbidden' as const] : []),
    ...(access?.page ? ['not_found' as const] : []),
  ];
  // Any route may find the database or storage down for a moment: 503 unavailable.
  for (const code of new Set([...r.errors, ...limitCodes, ...bodyCodes, ...roleCodes, 'unavailable' as const])) {
    const status = ERROR_CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error: ${codes.join(', ')}`,
      ...(status === 429 && { headers: answerHeaders({ limited: limits.length > 0, retryAfter: true }) }),
      ...(status === 503 && { headers: answerHeaders({ retryAfter: true }) }),
      content: { 'application/json': { schema: ERROR_REF, example: errorExample(codes[0]) } },
    };
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
          'application/json': {
            schema: schemaOf(r.body),
            ...(r.example?.body !== undefined && { example: r.example.body }),
          },
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

/** An error answer as the service gives it: the code and its hint. */
function errorExample(code: ErrorCode): Json {
  return { code, hint: ERROR_CODES[code][1] };
}
