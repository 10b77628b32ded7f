/** Factories for pages to import from: a Linktree-style Next.js page, plain HTML, script-built pages. */

export interface PageLink {
  title: string;
  url: string;
  hidden?: boolean;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A page shaped like Linktree's: the links live in `__NEXT_DATA__` JSON and the HTML holds
 * only an empty shell, so only the JSON can tell them.
 */
export function nextDataPage(o: {
  /** Where the page is served: its own address appears in the data, as on Linktree. */
  pageUrl: string;
  username: string;
  links: PageLink[];
  socials?: { type: string; url: string }[];
}) {
  const data = {
    props: {
      pageProps: {
        account: { username: o.username, pageTitle: o.username, profilePictureUrl: 'https://cdn.example.org/p.jpg' },
        links: o.links.map((l, i) => ({
          id: String(i + 1),
          type: 'CLASSIC',
          title: l.title,
          url: l.url,
          locked: l.hidden === true,
        })),
        socialLinks: o.socials ?? [],
        metaTags: [{ url: o.pageUrl, title: 'Linktree' }],
      },
    },
    page: '/[profile]',
  };
  return `<!doctype html><html><head><title>@${o.username} | Linktree</title></head>
<body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script src="/_next/static/chunks/main.js"></script></body></html>`;
}

/** A plain HTML page: anchors in a list, plus whatever extra markup a test adds. */
export function htmlPage(links: { label: string; href: string }[], extra = '') {
  const items = links.map((l) => `<li><a href="${escapeHtml(l.href)}">${l.label}</a></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My links</title></head>
<body><main><h1>Hello, I make things</h1><ul>${items}</ul>${extra}</main></body></html>`;
}

/** A single-page app: an empty root and a script that builds everything. */
export function scriptOnlyPage() {
  return `<!doctype html><html><head><title>Links</title></head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>document.getElementById('root').innerHTML = '<a href="https://example.com">Hi</a>';</script></body></html>`;
}
