/** GET /api/username/check: whether a name can be had, and what to take instead. */
import * as v from 'valibot';
import { checkUsername } from '../../core/queries/checkUsername.js';
import { UsernameCheckOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { route } from '../route.js';

const CheckQuery = v.object({ u: v.pipe(v.string('Send the name to check as ?u=.'), v.maxLength(200)) });

export function usernameRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/username/check',
      tag: 'Create and discover',
      summary: 'Check whether a username is free',
      description:
        'status is free, taken (with suggestions that are free now) or invalid (with the rule it breaks as reason).',
      auth: 'none',
      operation: 'checkUsername',
      query: CheckQuery,
      example: { query: { u: 'ada' } },
      responses: [
        {
          status: 200,
          description: 'The verdict',
          schema: UsernameCheckOut,
          example: { username: 'ada', status: 'taken', suggestions: ['ada-pages', 'ada-studio'] },
        },
      ],
      errors: ['invalid_fields'],
      async handler(ctx, { query }) {
        ctx.body = await checkUsername(s, query.u);
      },
    }),
  ];
}
