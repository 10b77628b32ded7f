/**
 * `npm run templates`: a preview server for template authors. Shows every template with the
 * sample page (every block type), its edge pages (`/t/<template>/<page>`, renderer/edgePages.ts),
 * and re-renders when a file under templates/ changes: an open tab reloads itself (it asks
 * /version every 700 ms), and while a template does not compile, every page shows the error
 * (its file, line and source line; renderer/templateErrors.ts) instead of the last good render.
 * `npm run templates -- <port>` picks the port (default 4000).
 */
import { watch } from 'node:fs';
import http from 'node:http';
import sharp from 'sharp';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { checkPages } from './edgePages.js';
import { escapeHtml } from './escape.js';
import { FONT_PATH, fontFile } from './fonts.js';
import { reloadTemplates, renderPage, TEMPLATES_DIR } from './render.js';
import { samplePage } from './sample.js';

const port = Number(process.argv[2] ?? 4000);
let version = 0;
/** Why the templates as they are on disk do not compile; null while they do. */
let broken: string | null = null;

/** Reloads the tab when the templates change (a preview page has no CSP: it is not a published page). */
const reloader = () =>
  `<script>const seen=${version};setInterval(()=>fetch('/version').then((r)=>r.text()).then((v)=>{if(Number(v)!==seen)location.reload()},()=>{}),700)</script>`;
const withReloader = (html: string) => html.replace('</body>', `${reloader()}</body>`);
const errorPage = (message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Template error</title><style>body{font:15px system-ui,sans-serif;margin:2rem}pre{background:#1c1917;color:#fef2f2;padding:1rem;border-radius:8px;white-space:pre-wrap}</style></head><body><h1>The templates do not compile</h1><pre>${escapeHtml(message)}</pre><p>Fix the file and save: this tab reloads by itself.</p>${reloader()}</body></html>`;

// Sample pictures, drawn once: the sample page names avatar and card images.
const picture = (hue: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480"><defs><linearGradient id="g" x2="1" y2="1"><stop stop-color="hsl(${hue},70%,62%)"/><stop offset="1" stop-color="hsl(${hue + 60},70%,38%)"/></linearGradient></defs><rect width="480" height="480" fill="url(#g)"/><circle cx="240" cy="200" r="105" fill="#fff" opacity=".85"/><rect x="96" y="345" width="288" height="200" rx="144" fill="#fff" opacity=".85"/></svg>`,
    ),
  )
    .avif({ quality: 50 })
    .toBuffer();
const pictures = { avatar: picture(20), card: picture(200), background: picture(280) };

function index(): string {
  const edges = (id: string) =>
    checkPages(id as TemplateId)
      .map((p) => `<a href="/t/${id}/${p.name}">${p.name}</a>`)
      .join(' · ');
  const items = TEMPLATE_IDS.map(
    (id) =>
      `<li><h2><a href="/t/${id}">${id}</a></h2><p>${edges(id)}</p><iframe src="/t/${id}" title="${id} preview" loading="lazy"></iframe></li>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Templates</title><style>body{font:15px system-ui,sans-serif;margin:2rem;background:#eee}ul{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:1.5rem}iframe{width:100%;height:720px;border:0;border-radius:12px;background:#fff;box-shadow:0 2px 8px #0002}h2{font-size:1rem;margin:0 0 .5rem}</style></head><body><h1>Ten templates, one sample page</h1><p>Edit files under templates/: the pages re-render and this tab reloads on change (version ${version}).</p><ul>${items}</ul></body></html>`;
}

const server = http.createServer(async (req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const [, template, edge] = (/^\/t\/([a-z0-9]+)(?:\/([a-z0-9-]+))?\/?$/.exec(path) ?? []) as (
    | TemplateId
    | undefined
  )[];
  const page = template && (edge ? checkPages(template).find((p) => p.name === edge)?.page : samplePage(template));
  if (path === '/version') {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(String(version));
  } else if (broken !== null && (path === '/' || template)) {
    res
      .writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(errorPage(broken));
  } else if (path === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(withReloader(index()));
  } else if (template && page && (TEMPLATE_IDS as readonly string[]).includes(template)) {
    const { html } = renderPage({
      page,
      now: new Date(),
      urls: { page: `http://localhost:${port}/t/${template}/`, media: `http://localhost:${port}/media` },
    });
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(withReloader(html));
  } else if (path.startsWith('/media/background/')) {
    res.writeHead(200, { 'content-type': 'image/avif' }).end(await pictures.background);
  } else if (path.startsWith('/media/avatar/') || path.startsWith('/media/card/')) {
    const body = await (path.startsWith('/media/avatar/') ? pictures.avatar : pictures.card);
    res.writeHead(200, { 'content-type': 'image/avif' }).end(body);
  } else if (path.startsWith(FONT_PATH) && fontFile(path.slice(FONT_PATH.length))) {
    res.writeHead(200, { 'content-type': 'font/woff2' }).end(fontFile(path.slice(FONT_PATH.length)));
  } else if (path.startsWith('/t/') && path.endsWith('/page.md')) {
    const id = path.split('/')[2] as TemplateId;
    const { md } = renderPage({ page: samplePage(id), now: new Date(), urls: { page: `/t/${id}/`, media: '/media' } });
    res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(md);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }
});

watch(TEMPLATES_DIR, { recursive: true }, (_event, file) => {
  version++;
  try {
    reloadTemplates();
    broken = null;
    process.stdout.write(`templates reloaded (${file ?? 'a file'} changed)\n`);
  } catch (err) {
    broken = (err as Error).message;
    process.stderr.write(`template error (the pages show it until it is fixed): ${broken}\n`);
  }
});

server.listen(port, () => process.stdout.write(`Template preview on http://localhost:${port}/\n`));
