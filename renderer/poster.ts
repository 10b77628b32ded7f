/**
 * Click-to-load players: an embed's <iframe> holds a small document of our own (`srcdoc`), a
 * poster drawn from the provider's colour and the title, whose one link opens the player in
 * the frame. Nothing reaches the provider before the visitor taps, and the page needs no script.
 *
 * The poster's stylesheet is the same on every page of a template (a shared part and the
 * template's look, posterLooks.ts), so its CSP hash is one more inline style of the page: it sits raw in the attribute (it has no `&` nor `"`), where the page host finds
 * it with the page's own <style> (platform/edge/securityHeaders.ts `styleHashes`).
 */
import type { EmbedBlock } from '../core/model.js';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { escapeHtml } from './escape.js';
import { EMBED_NAMES } from './links.js';
import { POSTER_LOOKS, POSTER_OTHER_SCHEME } from './posterLooks.js';
import { otherSchemeOf } from './schemes.js';
import { fill } from './strings.js';

// No slanted face is faked (font-synthesis-style): a title in Arabic or Hebrew, which the
// italic faces lack, stays upright in y2k's italic poster, as on the page.
const POSTER_CSS =
  'html,body{margin:0;height:100%}' +
  'a{box-sizing:border-box;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:10px;height:100%;padding:12px 16px;text-decoration:none;text-align:center;font:600 16px/1.3 system-ui,sans-serif;color:#fff;background:#111}' +
  'a:focus-visible{outline:3px solid #fff;outline-offset:-6px}' +
  '.b{display:grid;place-items:center;width:56px;height:56px;border-radius:50%;background:#fff;flex:none}' +
  '.b:after{content:"";margin-left:5px;border-style:solid;border-width:11px 0 11px 18px;border-color:transparent transparent transparent #111}' +
  // Two lines of a title before it is cut: one cut "Clay & Sea — live at the pottery s…".
  '.t{max-width:100%;overflow:hidden;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow-wrap:anywhere}' +
  '.p{font-size:13px;font-weight:500;opacity:.92}' +
  '.t,.p{font-synthesis-style:none}' +
  '.w{display:flex;flex-direction:column;align-items:center;gap:2px;min-width:0;max-width:100%}' +
  '.audio{flex-direction:row;justify-content:flex-start;gap:14px;text-align:start}' +
  '.audio .w{align-items:flex-start}' +
  '.youtube{background:linear-gradient(135deg,#c00,#5a0000)}.youtube .b:after{border-left-color:#c00}' +
  '.spotify{background:linear-gradient(135deg,#17331f,#121212)}.spotify .b{background:#1ed760}' +
  '.soundcloud{background:linear-gradient(135deg,#ff7a1a,#ff5500);color:#000}.soundcloud .b{background:#000}.soundcloud .b:after{border-left-color:#ff5500}' +
  '.applemusic{background:linear-gradient(135deg,#c8102a,#8a0016)}.applemusic .b:after{border-left-color:#d60017}' +
  // TikTok's black is a layer of the gradient, as the other providers' colours are: no colour of
  // the poster's own (templates:check judges only those against the page's scheme).
  '.tiktok{background:linear-gradient(135deg,#25f4ee33,#000 40%,#000 60%,#fe2c5533),linear-gradient(#000,#000)}';

// A play sign points right in every language (media controls are not mirrored), hence `left`.
// The inline `content:""` is written with double quotes above; the attribute needs none.
const CSS_IN_ATTRIBUTE = POSTER_CSS.replace(/""/g, "''");

/** A page's colour scheme: its template's own (`fixed`), or following the device (`auto`). */
export type PageScheme = 'fixed' | 'auto';

/**
 * The poster's stylesheet in a template, as the browser reads it (tests hash it): the shared one
 * and the template's look, with its other scheme's look where the page follows the device.
 */
export function posterStyle(template: TemplateId, scheme: PageScheme = 'fixed'): string {
  const other = POSTER_OTHER_SCHEME[template];
  const follows =
    scheme === 'auto' && other ? `@media (prefers-color-scheme:${otherSchemeOf(template)}){${other}}` : '';
  return CSS_IN_ATTRIBUTE + POSTER_LOOKS[template] + follows;
}

/** The player URL that starts playing as it opens (the tap on the poster already asked for it). */
export function autoplayUrl(player: string, provider: EmbedBlock['provider']): string {
  const join = player.includes('?') ? '&' : '?';
  if (provider === 'youtube') return `${player}${join}autoplay=1`;
  if (provider === 'soundcloud') return `${player}${join}auto_play=true`;
  return player;
}

/** Escapes for a double-quoted attribute: text already escaped once for the inner document. */
function attribute(html: string): string {
  return html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** Text for the inner document, then for the attribute (short strings: the title, the URL). */
function twice(text: string): string {
  return attribute(escapeHtml(text));
}

// The same for every poster of a template; escaped for the attribute once.
const HEAD = attribute(`<meta charset='utf-8'>`);
const STYLES = Object.fromEntries(
  (['fixed', 'auto'] as const).map((scheme) => [
    scheme,
    Object.fromEntries(TEMPLATE_IDS.map((id) => [id, attribute(`<style>${posterStyle(id, scheme)}</style>`)])),
  ]),
) as Record<PageScheme, Record<TemplateId, string>>;

/** What a page's posters share: its "Play {}" pattern, language, direction, template and scheme. */
export interface PosterPage {
  play: string;
  lang: string;
  dir: 'ltr' | 'rtl';
  template: TemplateId;
  scheme: PageScheme;
}

/** A page's PosterPage; a scheme other than "auto" (none, for pages before schemes) is the template's own. */
export function posterPage(
  template: TemplateId,
  scheme: string | undefined,
  play: string,
  lang: string,
  dir: 'ltr' | 'rtl',
): PosterPage {
  return { play, lang, dir, template, scheme: scheme === 'auto' ? 'auto' : 'fixed' };
}

/**
 * The `srcdoc` value of a player's frame, ready to place raw in a double-quoted attribute: a
 * poster naming the title and the provider, linking to the player.
 */
export function posterDoc(
  player: string,
  provider: EmbedBlock['provider'],
  shape: 'video' | 'tall' | 'audio',
  title: string,
  { play, lang, dir, template, scheme }: PosterPage,
): string {
  // Renders repeat (republishing): the same player and words give the same poster.
  const key = `${player}\n${shape}\n${title}\n${play}\n${lang}\n${template}\n${scheme}`;
  let doc = made.get(key);
  if (doc === undefined) {
    if (made.size >= KEPT) made.clear();
    doc = draw(player, provider, shape, title, fill(play, title), lang, dir, STYLES[scheme][template]);
    made.set(key, doc);
  }
  return doc;
}

const made = new Map<string, string>();
const KEPT = 1000;

function draw(
  player: string,
  provider: EmbedBlock['provider'],
  shape: 'video' | 'tall' | 'audio',
  text: string,
  play: string,
  lang: string,
  dir: string,
  style: string,
): string {
  const title = twice(text);
  return (
    `<!doctype html><html lang='${twice(lang)}' dir='${dir}'>${HEAD}<title>${title}</title>${style}` +
    `<a class='${provider}${shape === 'audio' ? ' audio' : ''}' href='${twice(autoplayUrl(player, provider))}' aria-label='${twice(play)}'>` +
    `<span class='b'></span><span class='w'><span class='t'>${title}</span>` +
    `<span class='p'>${twice(EMBED_NAMES[provider])}</span></span></a>`
  );
}
