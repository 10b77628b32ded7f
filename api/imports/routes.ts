/** POST /api/import/page and /api/import/{network}: links and profile data from elsewhere. */

import { importProfile } from '../../core/commands/importProfile.js';
import { ImportPageRequest, ImportProfileRequest } from '../../core/schemas/imports.js';
import { ImportPageOut, ImportProfileOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { importLinks } from '../../platform/outbound/linkPage.js';
import { NETWORK_NAMES } from '../../platform/outbound/networks.js';
import { accountOf, route } from '../route.js';

const tag = 'Images and imports';
const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;
const fetchErrors = ['bad_url', 'blocked', 'unreachable', 'too_large'] as const;

export function importRoutes(s: Services) {
  return [
    route({
      method: 'post',
      path: '/api/import/page',
      tag,
      summary: 'Read the links of a public link page',
      description:
        'Fetches a Linktree-style page or a plain HTML page and returns its outbound links with their labels, in page order (links back to the same site and duplicates left out, at most 80). Nothing is written: send the links as link blocks to create or update a page.',
      auth: 'key',
      operation: 'importLinks',
      body: ImportPageRequest,
      example: { body: { url: 'https://linktr.ee/ada' } },
      responses: [
        {
          status: 200,
          description: 'The links found',
          schema: ImportPageOut,
          example: { links: [{ label: 'My shop', url: 'https://shop.example.com/' }] },
        },
      ],
      errors: [...keyErrors, 'invalid_fields', ...fetchErrors, 'nothing_found', 'js_only'],
      async handler(ctx, { body }) {
        accountOf(ctx);
        ctx.body = { links: await importLinks(s.fetcher, body.url) };
      },
    }),

    route({
      method: 'post',
      path: '/api/import/:network',
      tag,
      summary: 'Import name, bio and photo from a social profile',
      description: `Networks: ${NETWORK_NAMES.join(', ')}. The photo is stored like an upload (kind avatar) and returned as a storage key; nothing else is written. 10 imports per day per account.`,
      auth: 'key',
      operation: 'importProfile',
      body: ImportProfileRequest,
      example: { body: { handle: '@ada' }, params: { network: 'github' } },
      responses: [
        {
          status: 200,
          description: 'The profile',
          schema: ImportProfileOut,
          example: {
            network: 'github',
            handle: 'ada',
            displayName: 'Ada Lovelace',
            bio: 'Prints, postcards and the odd program.',
            avatar: 'avatars/8e2d4c6b0a1f3e5d7c9b2a40/4f6a8b0c1d2e.avif',
          },
        },
      ],
      errors: [...keyErrors, 'invalid_fields', 'not_found', ...fetchErrors, 'not_image', 'processing_failed'],
      async handler(ctx, { body }) {
        ctx.body = await importProfile(s, accountOf(ctx), String(ctx.params.network), body.handle);
      },
    }),
  ];
}
