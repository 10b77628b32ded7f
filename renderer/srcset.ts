/**
 * Responsive images: the `srcset` and `sizes` of an image shown in a square slot of the
 * template (object-fit: cover), from the sizes stored beside it at upload (platform/store/layout.ts). An
 * image stored before sizes were made has none: it is shown as it is, without a srcset.
 */
import type { TemplateId } from '../core/schemas/fields.js';
import { mediaDimensions, mediaSizes } from '../platform/store/layout.js';

export interface Responsive {
  /** Candidates by width, smallest first, the image itself last; empty without stored sizes. */
  srcset: string;
  /** The width the picture takes in a `slot` px square: a wide picture is cut from a wider one. */
  sizes: string;
}

const NO_SIZES: Responsive = { srcset: '', sizes: '' };

/**
 * Where the templates show the avatar and card thumbnails: a square of at most `px` CSS pixels
 * (base.css and most templates: a 64–112 px avatar, a 48–56 px thumbnail), or a width given as
 * a `sizes` value where a template shows the picture across the page (photo's hero: the whole
 * width, half of it from 900 px; showcase's cards, photo's grid). Kept beside the templates' CSS: a template that changes a slot changes it here.
 */
type Slot = number | string;

export function imageSlots(template: TemplateId, layout: string): { avatar: Slot; thumb: Slot } {
  const grid = layout === 'grid';
  if (template === 'photo')
    return { avatar: '(min-width: 900px) 50vw, 100vw', thumb: grid ? '(max-width: 32rem) 50vw, 16rem' : 56 };
  if (template === 'showcase')
    return { avatar: 112, thumb: grid ? '(max-width: 44rem) 50vw, 22rem' : '(max-width: 44rem) 100vw, 44rem' };
  return { avatar: 112, thumb: 56 };
}

/** `media` is MEDIA_URL with its trailing slash; `key` a media key; `slot` where it is shown. */
export function responsive(media: string, key: string, slot: Slot): Responsive {
  const size = mediaDimensions(key);
  if (!size) return NO_SIZES;
  const candidates = mediaSizes(key).map((s) => `${media}${s.key} ${s.width}w`);
  candidates.push(`${media}${key} ${size.width}w`);
  // In a square cut with object-fit: cover, a wide picture is shown wider than the square.
  const sizes = typeof slot === 'string' ? slot : `${Math.round(slot * Math.max(1, size.width / size.height))}px`;
  return { srcset: candidates.join(', '), sizes };
}
