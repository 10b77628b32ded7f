/** The blocks of a page's view (view.ts builds them), and a block's empty form. */

export type AppLink = { label: string; href: string };
type RowItem = { label: string; href: string; icon: string };

/**
 * One block as templates show it. Every kind has every field (unused ones empty), so all
 * view blocks share one object shape and the compiled templates read them at full speed.
 */
export interface ViewBlock {
  kind: 'link' | 'social' | 'socialRow' | 'embed' | 'messenger' | 'heading' | 'paragraph' | 'contact';
  id: string;
  /** link, social, messenger: the visible label. */
  label: string;
  /** link: the line under the label. */
  note: string;
  /** heading, paragraph: the text. */
  text: string;
  href: string;
  /** The tap ping URL, already HTML-safe: an escaped base and a percent-encoded id. */
  ping: string;
  image: string | null;
  /** link: the image's stored sizes (srcset.ts; empty for images stored before sizes), and whether it may load lazily. */
  srcset: string;
  sizes: string;
  lazy: boolean;
  imagePos: string;
  badge: string | null;
  featured: boolean;
  adult: boolean;
  pulse: boolean;
  apps: AppLink[];
  /** social, messenger: the icon key. */
  icon: string;
  counter: string | null;
  items: RowItem[];
  /** embed: the player's title (contact: the file's name to save), the provider's name, the player URL and its frame shape. */
  title: string;
  provider: string;
  player: string | null;
  shape: 'video' | 'tall' | 'audio';
  /** embed: the frame's `srcdoc` (a poster linking to the player), already attribute-safe. */
  poster: string;
  /** embed: the words of the link under the player ("Open on YouTube"); contact: the button's ("Save contact"). */
  source: string;
  /** messenger: the service's name. */
  service: string;
  /** In a two-column grid: whether the block takes the whole row (see `markWide`). */
  wide: boolean;
  /** contact: the card's fields, for the Markdown twin (the HTML links the vCard). */
  card: ContactCard | null;
}

export interface ContactCard {
  phones: { text: string; href: string }[];
  emails: string[];
  website: string | null;
  /** The website's host, as the card shows it. */
  host: string;
  address: string;
}

/** The empty list every block without apps or items shares. */
export const NONE: never[] = [];

export function viewBlock(kind: ViewBlock['kind'], id: string, ping: string): ViewBlock {
  return {
    kind,
    id,
    label: '',
    note: '',
    text: '',
    href: '',
    ping,
    image: null,
    srcset: '',
    sizes: '',
    lazy: false,
    imagePos: '50% 50%',
    badge: null,
    featured: false,
    adult: false,
    pulse: false,
    apps: NONE,
    icon: '',
    counter: null,
    items: NONE,
    title: '',
    provider: '',
    player: null,
    shape: 'audio',
    poster: '',
    source: '',
    card: null,
    service: '',
    wide: false,
  };
}
