/** GET /api/claim/{token}: the status of a claim link, for anyone holding it. */
import { claimStatus } from '../../core/commands/claimLinks.js';
import { ClaimStatusOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { route } from '../route.js';

export function claimRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/claim/:token',
      tag: 'Create and discover',
      summary: 'Read the status of a claim link',
      description: 'pending, claimed, expired, or invalid for a token that was never issued.',
      auth: 'none',
      operation: 'claimStatus',
      responses: [{ status: 200, description: 'The status', schema: ClaimStatusOut, example: { status: 'pending' } }],
      errors: [],
      async handler(ctx) {
        ctx.body = { status: await claimStatus(s, ctx.params.token) };
      },
    }),
  ];
}
