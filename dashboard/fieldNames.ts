/**
 * The words a form uses for a field, for error messages: "Display name", not "(displayName)".
 * An error names a field by its path in the request (`displayName`, `theme.accent`,
 * `blocks[2].items[0].url`, `avatarFocus.x`); a path with no words here is not shown at all
 * rather than shown raw.
 */
const WORDS: Record<string, string> = {
  displayName: 'Display name',
  bio: 'Bio',
  templateId: 'Template',
  layout: 'Layout',
  headerAlign: 'Header',
  pageLocale: 'Page language',
  accent: 'Accent colour',
  utm: 'UTM tags',
  adult: 'Adults only',
  branding: 'Made with linkpage',
  author: 'Whose changes',
  within: 'Made in',
  scheme: 'Colours',
  avatar: 'Avatar',
  backgroundImage: 'Background',
  overlay: 'Overlay',
  email: 'E-mail',
  password: 'Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirm: 'Confirmation',
  locale: 'Language',
  username: 'Name',
  label: 'Label',
  url: 'URL',
  domain: 'Domain',
  note: 'Note',
  path: 'Short path',
  content: 'Text',
  variant: 'Style',
  platform: 'Network',
  provider: 'Service',
  title: 'Title',
  handle: 'Handle',
  messenger: 'Messenger',
  showFrom: 'Show from',
  showUntil: 'Show until',
  image: 'Card image',
  file: 'File',
  kind: 'Kind of image',
  items: 'Icons',
  name: 'Name',
  organisation: 'Organisation',
  phones: 'Phone numbers',
  emails: 'E-mails',
  website: 'Website',
  address: 'Address',
  type: 'Kind of block',
};

const FOCUS: Record<string, string> = {
  avatarFocus: 'Avatar focus',
  backgroundFocus: 'Background focus',
  imageFocus: 'Card image focus',
};

/** The field of an error in words ("Block 3: URL"), or '' when it has none. */
export function fieldInWords(path: unknown): string {
  if (typeof path !== 'string' || path === '') return '';
  const parts = path.split(/[.[\]]+/).filter(Boolean);
  const named = parts.filter((p) => !/^\d+$/.test(p));
  const last = named.at(-1) ?? '';
  const focus = FOCUS[named.at(-2) ?? ''];
  const words =
    focus && (last === 'x' || last === 'y') ? `${focus} (${last === 'x' ? 'across' : 'down'})` : WORDS[last];
  if (!words) return '';
  if (parts[0] === 'blocks' && /^\d+$/.test(parts[1] ?? '')) {
    const item = parts[2] === 'items' && /^\d+$/.test(parts[3] ?? '') ? `, icon ${Number(parts[3]) + 1}` : '';
    return `Block ${Number(parts[1]) + 1}${item}: ${words}`;
  }
  return words;
}
