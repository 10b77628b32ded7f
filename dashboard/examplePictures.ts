/**
 * The example pages' pictures: an avatar and a card image for each made-up person, drawn here as
 * SVG (no photograph of anyone real, nothing fetched) and encoded once, on first request, to the
 * AVIF a real upload is stored as. Served at /examples/media/<kind>/examples/<name>.avif.
 */
import sharp from 'sharp';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">${body}</svg>`;

/** A ceramicist's studio shelf: a celadon vase and a cream bowl with a cobalt rim. */
const studio = svg(`<defs>
<linearGradient id="w" x2="0" y2="1"><stop stop-color="#f5ebdd"/><stop offset="1" stop-color="#e4cfb4"/></linearGradient>
<linearGradient id="v" x2="1"><stop stop-color="#56694f"/><stop offset=".42" stop-color="#9bb090"/><stop offset="1" stop-color="#465741"/></linearGradient>
<linearGradient id="b" x2="1"><stop stop-color="#d6c2a6"/><stop offset=".5" stop-color="#f8efe3"/><stop offset="1" stop-color="#c4ac8e"/></linearGradient>
<radialGradient id="l" cx=".3" cy=".2" r=".8"><stop stop-color="#fff" stop-opacity=".55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
<rect width="480" height="480" fill="url(#w)"/><rect width="480" height="480" fill="url(#l)"/>
<rect y="338" width="480" height="142" fill="#b88760"/><rect y="338" width="480" height="7" fill="#9c6d48"/>
<ellipse cx="232" cy="346" rx="92" ry="9" fill="#4a2f1c" opacity=".22"/>
<path d="M197 112h70v22c0 18-12 26-12 42 0 22 58 50 58 106 0 42-26 62-54 62h-54c-28 0-54-20-54-62 0-56 58-84 58-106 0-16-12-24-12-42z" fill="url(#v)"/>
<ellipse cx="232" cy="112" rx="35" ry="7" fill="#34412f"/>
<path d="M164 262q68 24 136 0" stroke="#dbe5d2" stroke-width="5" fill="none" opacity=".55"/>
<path d="M186 300q46 14 92 0" stroke="#dbe5d2" stroke-width="3" fill="none" opacity=".35"/>
<ellipse cx="362" cy="346" rx="62" ry="6" fill="#4a2f1c" opacity=".2"/>
<path d="M300 292h124c0 38-26 54-62 54s-62-16-62-54z" fill="url(#b)"/>
<ellipse cx="362" cy="292" rx="62" ry="10" fill="#1e3a6e"/><ellipse cx="362" cy="293" rx="54" ry="6.5" fill="#e9dcc9"/>`);

/** Stoneware plates and cups from above, on linen: the spring collection. */
const collection = svg(`<defs>
<radialGradient id="p" cx=".45" cy=".4" r=".6"><stop stop-color="#fbf4ea"/><stop offset=".8" stop-color="#eadbc6"/><stop offset="1" stop-color="#d2bc9e"/></radialGradient>
<radialGradient id="g" cx=".45" cy=".4" r=".6"><stop stop-color="#c5d6bb"/><stop offset="1" stop-color="#7f9873"/></radialGradient>
<radialGradient id="c" cx=".45" cy=".4" r=".6"><stop stop-color="#f6c8a8"/><stop offset="1" stop-color="#c9774d"/></radialGradient></defs>
<rect width="480" height="480" fill="#ece3d6"/>
<path d="M0 40h480M0 120h480M0 200h480M0 280h480M0 360h480M0 440h480" stroke="#e0d4c3" stroke-width="14"/>
<circle cx="168" cy="190" r="128" fill="#3f2a1a" opacity=".12"/><circle cx="160" cy="180" r="128" fill="url(#p)"/><circle cx="160" cy="180" r="78" fill="none" stroke="#1e3a6e" stroke-width="5"/>
<circle cx="356" cy="336" r="98" fill="#3f2a1a" opacity=".12"/><circle cx="348" cy="326" r="98" fill="url(#g)"/><circle cx="348" cy="326" r="56" fill="none" stroke="#eef3ea" stroke-width="4" opacity=".7"/>
<circle cx="372" cy="112" r="60" fill="#3f2a1a" opacity=".12"/><circle cx="366" cy="106" r="60" fill="url(#c)"/><circle cx="366" cy="106" r="38" fill="#8f4a2b"/>
<circle cx="120" cy="392" r="46" fill="#3f2a1a" opacity=".12"/><circle cx="116" cy="386" r="46" fill="url(#p)"/><circle cx="116" cy="386" r="28" fill="#1e3a6e"/>`);

/** The city at night under an amber moon: the podcast's mark. */
const night = svg(`<defs>
<linearGradient id="s" x2="0" y2="1"><stop stop-color="#070b1a"/><stop offset=".7" stop-color="#1b2a55"/><stop offset="1" stop-color="#3b3a6b"/></linearGradient>
<radialGradient id="m" r=".5"><stop offset=".55" stop-color="#f59e0b" stop-opacity=".45"/><stop offset="1" stop-color="#f59e0b" stop-opacity="0"/></radialGradient></defs>
<rect width="480" height="480" fill="url(#s)"/>
<g fill="#fef3c7"><circle cx="70" cy="90" r="2"/><circle cx="130" cy="150" r="1.5"/><circle cx="210" cy="70" r="2"/><circle cx="390" cy="210" r="1.5"/><circle cx="420" cy="60" r="2"/><circle cx="100" cy="220" r="1.5"/><circle cx="250" cy="160" r="1.2"/><circle cx="330" cy="40" r="1.4"/></g>
<mask id="c"><circle cx="318" cy="142" r="56" fill="#fff"/><circle cx="344" cy="122" r="48" fill="#000"/></mask><circle cx="300" cy="160" r="96" fill="url(#m)"/><circle cx="318" cy="142" r="56" fill="#fbbf24" mask="url(#c)"/>
<path d="M0 480V330h40v-40h46v60h28V250h60v100h22v-70h54v-40h50v110h34v-60h56v50h36v-30h54v170z" fill="#05070f"/>
<g fill="#f59e0b"><rect x="128" y="270" width="10" height="14"/><rect x="150" y="300" width="10" height="14"/><rect x="128" y="330" width="10" height="14"/><rect x="222" y="300" width="9" height="13"/><rect x="272" y="262" width="9" height="13"/><rect x="292" y="292" width="9" height="13"/><rect x="272" y="352" width="9" height="13"/><rect x="368" y="310" width="9" height="13"/><rect x="60" y="350" width="9" height="13"/><rect x="412" y="340" width="9" height="13"/></g>`);

/** A baker's loaf on a dark board, steam rising: episode 48. */
const bread = svg(`<defs>
<radialGradient id="k" cx=".5" cy=".35" r=".6"><stop stop-color="#e8a25a"/><stop offset=".7" stop-color="#b9662b"/><stop offset="1" stop-color="#7c3a14"/></radialGradient>
<radialGradient id="bg" cx=".5" cy=".45" r=".7"><stop stop-color="#2a2140"/><stop offset="1" stop-color="#0b0a14"/></radialGradient></defs>
<rect width="480" height="480" fill="url(#bg)"/>
<ellipse cx="240" cy="352" rx="196" ry="42" fill="#3b2a1d"/><ellipse cx="240" cy="344" rx="196" ry="42" fill="#5b412c"/>
<ellipse cx="240" cy="330" rx="150" ry="20" fill="#000" opacity=".35"/>
<path d="M98 318c0-84 64-140 142-140s142 56 142 140c0 14-10 22-22 22H120c-12 0-22-8-22-22z" fill="url(#k)"/>
<path d="M168 226q22 40 8 80M232 206q22 48 8 102M298 222q22 40 8 84" stroke="#f7d7a8" stroke-width="10" stroke-linecap="round" fill="none" opacity=".85"/>
<path d="M200 150c-18-24 18-36 0-64M250 136c-18-24 18-36 0-64M300 150c-18-24 18-36 0-64" stroke="#f5f3ff" stroke-width="6" stroke-linecap="round" fill="none" opacity=".35"/>`);

/** A harbour at dusk on film: the sun low over the water, a lighthouse and a sail. */
const harbour = svg(`<defs>
<linearGradient id="s" x2="0" y2="1"><stop stop-color="#fde68a"/><stop offset=".45" stop-color="#fb923c"/><stop offset=".62" stop-color="#be123c"/></linearGradient>
<linearGradient id="w" x2="0" y2="1"><stop stop-color="#7c2d4a"/><stop offset="1" stop-color="#1e1b3a"/></linearGradient></defs>
<rect width="480" height="300" fill="url(#s)"/><circle cx="240" cy="292" r="78" fill="#fff7d6" opacity=".9"/>
<rect y="290" width="480" height="190" fill="url(#w)"/>
<g stroke="#fcd34d" stroke-linecap="round" opacity=".7"><path d="M180 316h120" stroke-width="5"/><path d="M200 340h80" stroke-width="4"/><path d="M214 364h52" stroke-width="3"/><path d="M226 388h28" stroke-width="3"/></g>
<path d="M0 300c60-20 110-22 150-4v14H0z" fill="#2a1633"/><path d="M330 296c50-18 110-16 150 0v14H330z" fill="#2a1633"/>
<path d="M388 296l8-96h16l8 96z" fill="#2a1633"/><rect x="392" y="186" width="24" height="16" fill="#2a1633"/><path d="M390 186l14-14 14 14z" fill="#2a1633"/><rect x="398" y="190" width="12" height="9" fill="#fef08a"/>
<path d="M110 366h84l-10 16h-66z" fill="#1a1024"/><path d="M150 364V276l38 84z" fill="#1a1024"/><path d="M146 364V292l-30 68z" fill="#1a1024"/>`);

/** Framed prints on a gallery wall: prints, signed and numbered. */
const prints = svg(`<rect width="480" height="480" fill="#e9e4dc"/>
<rect x="46" y="70" width="200" height="250" fill="#1c1917"/><rect x="62" y="86" width="168" height="218" fill="#f5f5f4"/>
<rect x="78" y="102" width="136" height="150" fill="#57534e"/><path d="M78 212c30-16 60-18 86-6s40 10 50 4v42H78z" fill="#292524"/><circle cx="178" cy="140" r="16" fill="#d6d3d1"/>
<rect x="270" y="110" width="164" height="204" fill="#1c1917"/><rect x="284" y="124" width="136" height="176" fill="#f5f5f4"/>
<rect x="298" y="138" width="108" height="120" fill="#a8a29e"/><path d="M298 230h108v28H298z" fill="#44403c"/><path d="M342 230V168l28 62z" fill="#1c1917"/>
<rect x="120" y="350" width="240" height="10" rx="5" fill="#cfc6b8"/><text x="240" y="410" font-family="DejaVu Serif,serif" font-style="italic" font-size="26" fill="#57534e" text-anchor="middle">No. 12 / 50</text>`);

/** A terminal with a green prompt and highlighted code on an aurora: a developer's mark. */
const terminal = svg(`<defs>
<linearGradient id="a" x1="0" y1="0" x2="1" y2="1"><stop stop-color="#312e81"/><stop offset=".55" stop-color="#6d28d9"/><stop offset="1" stop-color="#0e7490"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#a)"/>
<circle cx="90" cy="80" r="120" fill="#22d3ee" opacity=".18"/><circle cx="420" cy="420" r="150" fill="#f472b6" opacity=".16"/>
<rect x="78" y="122" width="324" height="236" rx="18" fill="#0f172a" opacity=".92"/>
<rect x="78" y="122" width="324" height="38" rx="18" fill="#1e293b"/><rect x="78" y="142" width="324" height="18" fill="#1e293b"/>
<circle cx="104" cy="141" r="7" fill="#f87171"/><circle cx="126" cy="141" r="7" fill="#fbbf24"/><circle cx="148" cy="141" r="7" fill="#34d399"/>
<path d="M104 192l16 12-16 12" stroke="#34d399" stroke-width="6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="132" y="198" width="120" height="12" rx="6" fill="#e2e8f0"/>
<rect x="104" y="236" width="58" height="12" rx="6" fill="#c084fc"/><rect x="172" y="236" width="96" height="12" rx="6" fill="#7dd3fc"/><rect x="278" y="236" width="40" height="12" rx="6" fill="#fda4af"/>
<rect x="128" y="266" width="84" height="12" rx="6" fill="#94a3b8"/><rect x="222" y="266" width="112" height="12" rx="6" fill="#fcd34d"/>
<rect x="128" y="296" width="150" height="12" rx="6" fill="#7dd3fc"/><rect x="104" y="326" width="22" height="12" rx="3" fill="#34d399"/>`);

/** A talk's slide: build times falling bar by bar. */
const slides = svg(`<rect width="480" height="480" fill="#eef2ff"/>
<rect x="40" y="80" width="400" height="300" rx="14" fill="#fff" stroke="#c7d2fe" stroke-width="3"/>
<rect x="72" y="112" width="190" height="18" rx="9" fill="#312e81"/><rect x="72" y="142" width="120" height="12" rx="6" fill="#a5b4fc"/>
<path d="M80 340h320" stroke="#c7d2fe" stroke-width="3"/>
<rect x="96" y="188" width="44" height="152" rx="6" fill="#6366f1"/><rect x="164" y="222" width="44" height="118" rx="6" fill="#6366f1"/><rect x="232" y="256" width="44" height="84" rx="6" fill="#6366f1"/><rect x="300" y="290" width="44" height="50" rx="6" fill="#22d3ee"/>
<path d="M118 176L186 210 254 244 322 278" stroke="#f472b6" stroke-width="5" fill="none" stroke-linecap="round" stroke-dasharray="2 12"/>`);

/** Every example picture by its path under /examples/media/. */
export const EXAMPLE_PICTURES: Readonly<Record<string, string>> = {
  'avatar/examples/maya.avif': studio,
  'card/examples/maya-spring.avif': collection,
  'avatar/examples/nightshift.avif': night,
  'card/examples/nightshift-48.avif': bread,
  'avatar/examples/jonas.avif': harbour,
  'card/examples/jonas-prints.avif': prints,
  'avatar/examples/priya.avif': terminal,
  'card/examples/priya-talk.avif': slides,
};

const encoded = new Map<string, Promise<Buffer>>();

/** The AVIF of an example picture, encoded on its first request; null for a path that is none. */
export function examplePicture(path: string): Promise<Buffer> | null {
  const source = EXAMPLE_PICTURES[path];
  if (source === undefined) return null;
  let picture = encoded.get(path);
  if (!picture) {
    picture = sharp(Buffer.from(source)).avif({ quality: 55, effort: 2 }).toBuffer();
    encoded.set(path, picture);
  }
  return picture;
}
