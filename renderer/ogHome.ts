/**
 * The home page's link-preview picture (`/og.png`): the service's mark and promise beside three
 * small pages in three templates' colours, drawn once per process in the card faces (ogFonts.ts).
 */
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { loadSharp } from '../platform/media/sharp.js';
import { loadCardFonts } from './ogFonts.js';
import { OG_HEIGHT, OG_WIDTH, SERVICE_NAME } from './ogImage.js';

/** A phone-sized page: its ground, a portrait disc, a name bar and three link bars. */
function miniPage(x: number, y: number, tilt: number, bg: string, ink: string, accent: string, card: string): string {
  const bars = [0, 1, 2]
    .map((n) => `<rect x="24" y="${196 + n * 58}" width="212" height="44" rx="12" fill="${n === 0 ? accent : card}"/>`)
    .join('');
  return (
    `<g transform="translate(${x} ${y}) rotate(${tilt} 130 230)">` +
    `<rect width="260" height="440" rx="28" fill="${bg}" stroke="#1f1b16" stroke-opacity=".12" stroke-width="2"/>` +
    `<circle cx="130" cy="82" r="44" fill="${accent}"/><rect x="60" y="144" width="140" height="18" rx="9" fill="${ink}"/>${bars}</g>`
  );
}

function homeSvg(): Buffer {
  const pages =
    miniPage(640, 120, -8, '#0f1226', '#f5f7ff', '#7b5cff', '#ffffff2e') +
    miniPage(900, 96, 6, '#f4efe1', '#111', '#d9480f', '#fff') +
    miniPage(770, 150, -1, '#f7f3ec', '#1f1b16', '#1a7f37', '#ffffff');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">` +
      `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="#fafaf9"/>` +
      `<rect x="80" y="96" width="64" height="64" rx="16" fill="#4338ca"/><path d="M100 112v32h28" stroke="#fff" stroke-width="8" fill="none"/>` +
      `<text x="166" y="146" font-family="DejaVu Sans" font-weight="700" font-size="44" fill="#1c1917">${SERVICE_NAME}</text>` +
      `<text font-family="Newsreader" font-size="76" fill="#1c1917"><tspan x="80" y="290">One page for</tspan><tspan x="80" y="372">all your links</tspan></text>` +
      `<text font-family="DejaVu Sans" font-size="28" fill="#57534e"><tspan x="80" y="448">For people and their agents:</tspan>` +
      `<tspan x="80" y="488">${TEMPLATE_IDS.length} templates, an API, MCP</tspan><tspan x="80" y="528">and a Markdown twin.</tspan></text>` +
      `${pages}</svg>`,
  );
}

let drawn: Promise<Buffer> | null = null;

/** The home page's picture, a 1200 × 630 PNG (drawn on the first request, then kept). */
export function homeOgImage(): Promise<Buffer> {
  drawn ??= (async () => {
    await loadCardFonts();
    const sharp = await loadSharp();
    return sharp(homeSvg()).png({ compressionLevel: 9 }).toBuffer();
  })().catch((err) => {
    drawn = null;
    throw err;
  });
  return drawn;
}

let icon: Promise<Buffer> | null = null;

/**
 * The service's mark as a 48 × 48 PNG, for the dashboard's `/favicon.png` (a template's page
 * shown in the dashboard's preview names its icon there, as it does on its own host).
 */
export function serviceIcon(): Promise<Buffer> {
  icon ??= (async () => {
    const sharp = await loadSharp();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 32 32">' +
      '<rect width="32" height="32" rx="8" fill="#4338ca"/><path d="M10 8v16h12" stroke="#fff" stroke-width="4" fill="none"/></svg>';
    return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  })().catch((err) => {
    icon = null;
    throw err;
  });
  return icon;
}
