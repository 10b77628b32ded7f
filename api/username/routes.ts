/** GET /api/username/check: whether a name can be had, and what to take instead. */
import * as v from 'valibot';
import { namesRepo } from '../../store/names.js';
import { route } from '../route.js';
import { UsernameCheckOut } from '../schemas/responses.js';
import type { Services } from '../services.js';
import { usernameProblem } from './rules.js';
import { suggestFreeNames } from './suggest.js';

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
      limits: [{ name: 'usernameCheck' }],
      query: CheckQuery,
      responses: [{ status: 200, description: 'The verdict', schema: UsernameCheckOut }],
      errors: ['invalid_fields'],
      async handler(ctx, { query }) {
        const username = query.u;
        const reason = usernameProblem(username);
        if (reason) {
          ctx.body = { username, status: 'invalid', reason };
          return;
        }
        const taken = await namesRepo(s.db).taken([username], null);
        ctx.body = taken.has(username)
          ? { username, status: 'taken', suggestions: await suggestFreeNames(s.db, username, null) }
          : { username, status: 'free' };
      },
    }),
  ];
}
