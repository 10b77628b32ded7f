/** The shape of a media key, as page fields take it and as platform/store/layout.ts makes it. */

/** The kinds of uploaded image, each a folder of its own under `media/`. */
export const IMAGE_KINDS = ['avatar', 'background', 'card'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/**
 * `<kind>/<24 hex account id>/<36 hex and hyphens>`, captured as the kind and the id; an image
 * stored under the earlier shape also has `_<width>x<height>`, captured as its width and height.
 */
export const MEDIA_KEY_BASE = `(${IMAGE_KINDS.join('|')})/[0-9a-f]{24}/([0-9a-f-]{36})(?:_([1-9][0-9]{0,4})x([1-9][0-9]{0,4}))?`;

/**
 * A media key as page fields take it: `avatar/<24 hex account id>/<36 hex and hyphens>.avif`,
 * or an earlier image's `…/<uuid>_<width>x<height>.avif`.
 */
export const MEDIA_KEY = new RegExp(`^${MEDIA_KEY_BASE}\\.avif$`);
