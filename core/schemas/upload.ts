/** The JSON form of an upload: a public image URL and what the image is for. */
import * as v from 'valibot';
import { HttpUrl } from './fields.js';
import { IMAGE_KINDS } from './mediaKey.js';

const ImageKindSchema = v.picklist(IMAGE_KINDS, 'bad_kind');

export const UploadByUrl = v.strictObject({
  url: v.pipe(HttpUrl, v.description('A public http(s) image URL.')),
  kind: ImageKindSchema,
});
