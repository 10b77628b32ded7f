/** POST /api/upload: an image by URL (JSON) or as a file (multipart) becomes a storage key. */
import { storeImage, storeImageFromUrl } from '../../core/commands/images.js';
import { AppError } from '../../core/errors.js';
import { UploadOut } from '../../core/schemas/responses.js';
import { UploadByUrl } from '../../core/schemas/upload.js';
import type { Services } from '../../core/services.js';
import { parseOrThrow } from '../../core/validation.js';
import { readMultipartUpload } from '../../platform/media/multipart.js';
import { isImageKind } from '../../platform/media/pipeline.js';
import { IMAGE_KINDS } from '../../platform/store/layout.js';
import { accountOf, route } from '../route.js';

export function uploadRoutes(s: Services) {
  return [
    route({
      method: 'post',
      path: '/api/upload',
      tag: 'Images and imports',
      summary: 'Upload an image (avatar, background or card) and get its storage key',
      description:
        'JSON {url, kind} fetches a public image; multipart/form-data with the fields kind and file (kind first) uploads one. JPEG, PNG, WebP, AVIF, GIF, TIFF and HEIC are accepted, up to 8 MB for avatar and card and 30 MB for background. The image is turned upright, stripped of all metadata (GPS included), scaled down and stored as AVIF. Use the key in avatar, theme.backgroundImage or a link block image of a page of the same account.',
      auth: 'key',
      // A URL counts against 30 fetches an hour, a file against 120 files an hour.
      operation: 'uploadImage',
      body: UploadByUrl,
      parseBody: false,
      multipart: {
        type: 'object',
        required: ['kind', 'file'],
        properties: {
          kind: { type: 'string', enum: [...IMAGE_KINDS] },
          file: { type: 'string', format: 'binary' },
        },
      },
      example: { body: { url: 'https://images.example.com/ada.jpg', kind: 'avatar' } },
      responses: [
        {
          status: 201,
          description: 'Stored',
          schema: UploadOut,
          example: {
            key: 'avatars/8e2d4c6b0a1f3e5d7c9b2a40/4f6a8b0c1d2e.avif',
            url: 'https://media.example.page/avatars/8e2d4c6b0a1f3e5d7c9b2a40/4f6a8b0c1d2e.avif',
          },
        },
      ],
      errors: [
        'unauthorized',
        'invalid_key',
        'key_revoked',
        'invalid_fields',
        'no_file',
        'bad_kind',
        'bad_url',
        'blocked',
        'unreachable',
        'too_large',
        'not_image',
        'processing_failed',
      ],
      async handler(ctx) {
        const accountId = accountOf(ctx);
        if (ctx.is('multipart/form-data')) {
          const upload = await readMultipartUpload(ctx.req);
          ctx.body = await storeImage(s, accountId, upload.kind, upload.file);
        } else {
          const body = (ctx.request.body ?? {}) as Record<string, unknown>;
          if (typeof body !== 'object' || Array.isArray(body) || body.url === undefined) {
            throw new AppError('no_file', { field: 'url', detail: 'url' });
          }
          if (!isImageKind(body.kind)) throw new AppError('bad_kind', { field: 'kind', detail: 'kind' });
          const input = parseOrThrow(UploadByUrl, body);
          ctx.body = await storeImageFromUrl(s, accountId, input.kind, input.url);
        }
        ctx.status = 201;
      },
    }),
  ];
}
