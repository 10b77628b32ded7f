/**
 * /api/keys: key management belongs to a person in a browser session. A request with an API
 * key is refused with forbidden_via_key; the session side arrives with the dashboard.
 */
import * as v from 'valibot';
import { route } from '../route.js';

const errors = ['forbidden_via_key', 'unauthorized'] as const;
const description = 'Browser session only: with an API key the answer is 403 forbidden_via_key.';

export function keyRoutes() {
  const refuse = async () => {};
  return [
    route({
      method: 'get',
      path: '/api/keys',
      tag: 'Account',
      summary: 'List API keys',
      description,
      auth: 'session',
      responses: [{ status: 200, description: 'The keys' }],
      errors: [...errors],
      handler: refuse,
    }),
    route({
      method: 'post',
      path: '/api/keys',
      tag: 'Account',
      summary: 'Create an API key (shown once)',
      description,
      auth: 'session',
      body: v.object({ label: v.optional(v.pipe(v.string(), v.maxLength(80))) }),
      responses: [{ status: 201, description: 'The new key, shown once' }],
      errors: [...errors, 'limit_reached'],
      handler: refuse,
    }),
    route({
      method: 'delete',
      path: '/api/keys/:id',
      tag: 'Account',
      summary: 'Revoke an API key',
      description,
      auth: 'session',
      responses: [{ status: 204, description: 'Revoked' }],
      errors: [...errors, 'not_found'],
      handler: refuse,
    }),
  ];
}
