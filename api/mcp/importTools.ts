/** The tools that bring things from elsewhere: an image by URL, a link page's links, a social profile. */
import * as v from 'valibot';
import { storeImageFromUrl } from '../../core/commands/images.js';
import { importProfile } from '../../core/commands/importProfile.js';
import { ImportPageRequest, ImportProfileRequest } from '../../core/schemas/imports.js';
import { ImportPageOut, ImportProfileOut, UploadOut } from '../../core/schemas/responses.js';
import { UploadByUrl } from '../../core/schemas/upload.js';
import { importLinks } from '../../platform/outbound/linkPage.js';
import { NETWORK_NAMES } from '../../platform/outbound/networks.js';
import { tool } from './tool.js';

export const uploadImageTool = tool({
  name: 'upload_image',
  title: 'Upload an image',
  description:
    "Fetch a public image (JPEG, PNG, WebP, AVIF, GIF, TIFF or HEIC; 8 MB for avatar and card, 30 MB for background) and store it for the account. Returns {key, url}: put key in a page's avatar, theme.backgroundImage or a link block's image with update_page.",
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  output: UploadOut,
  auth: 'key',
  input: UploadByUrl,
  operation: 'uploadImage',
  handler: (s, c, input) => storeImageFromUrl(s, c.accountId, input.kind, input.url),
});

export const importLinksTool = tool({
  name: 'import_links',
  title: 'Import links',
  description:
    'Read the outbound links of a public link page (a Linktree-style page or a personal site). Returns {links: [{label, url}]} in page order; send them as link blocks ({type: "link", label, url}) with create_page or update_page. Nothing is written.',
  hints: { readOnly: true, openWorld: true },
  output: ImportPageOut,
  auth: 'key',
  input: ImportPageRequest,
  operation: 'importLinks',
  handler: async (s, _c, input) => ({ links: await importLinks(s.fetcher, input.url) }),
});

export const importProfileTool = tool({
  name: 'import_profile',
  title: 'Import a social profile',
  description: `Import display name, bio and photo from a public social profile (networks: ${NETWORK_NAMES.join(', ')}). The photo is stored as an avatar image of the account; returns {network, handle, displayName, bio, avatar} ready for update_page. 10 per day per account.`,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  output: ImportProfileOut,
  auth: 'key',
  input: v.object({ network: v.picklist(NETWORK_NAMES), ...ImportProfileRequest.entries }),
  operation: 'importProfile',
  // POST /api/import/{network}: the network is in the path.
  pathArgs: ['network'],
  handler: (s, c, input) => importProfile(s, c.accountId, input.network, input.handle),
});
