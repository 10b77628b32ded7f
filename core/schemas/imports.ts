/** Bodies of the import endpoints. */
import * as v from 'valibot';
import { HttpUrl, text } from './fields.js';

export const ImportPageRequest = v.strictObject({
  url: v.pipe(HttpUrl, v.description('A public link page, like a Linktree page or a personal site.')),
});

export const ImportProfileRequest = v.strictObject({
  handle: v.pipe(text(1, 253), v.description('The handle on the network, with or without a leading @.')),
});
