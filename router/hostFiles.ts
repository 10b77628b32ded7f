/**
 * A page host's small files besides the page: its icons (`/favicon.ico` too, which browsers
 * ask for on their own), its link-preview picture (`/og/<hash>.png`) and `/llms.txt`, each
 * stored beside the page at publish, and the same robots.txt (naming the site's sitemap) and template fonts (fontFiles.ts)
 * for every page host. An icon not
 * stored (a page published before icons were made, or a name with no page) is answered with a
 * neutral one, never a 404.
 */
import { createHash } from 'node:crypto';
import { CONTACT_FILE, ogImageKey, pageKeys } from '../platform/store/layout.js';
import type { StoredObject } from '../platform/store/objects.js';
import { FONT_PATH, fontAnswer } from './fontFiles.js';

/** A neutral 48 × 48 PNG: a light figure on slate grey. */
const NEUTRAL_ICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAMAAABg3Am1AAABHVBMVEVMaXFKVWJKVWNKVWIzZmZ/f39LVWNKVWJVVVVLVGJKVWJJVmJLVGNLVWRKU2RKVWFLVGNMVWNLVWNKU2NLVGJKVWJMVmJLVGNKVWNLVGNKVWNKVWJLVGJVVVVLVWNLVGJLVGPz9PZLVWPx8vTs7e+qsLdPWWfW2d1SXGlPWGaorbTs7fCvs7ry8/Xr7O7X2d7X2t3Hy9Cqr7bk5ulocHxQWmdpcX3Dx81RW2mssrlnb3zHys+wtLyssbiorrVncHtWX2yHjpjg4ubS1dnt7vBjbHmEipWOlZ2UmaLb3eBMVmTIzNB3fomus7pOWGWprrVNV2Wzt73e4ORSXGrc3+KAiJLt7/GZn6iSmKF4f4vf4eXq7O20ub9kbHnGys5kjsomAAAAIXRSTlMA16TbBQLY8wamjFP0VE9Wi1fdUtyJUFWniNre2QOKo/FONsxtAAAACXBIWXMAAAsTAAALEwEAmpwYAAABeUlEQVRIx63W127CMBQGYANhtWwodLd2BhvK3pvuvXff/zEKESRE9ZT6X0XJ+SQ7duIDwDyesNflQ5T4XN6gBxhZjyCOxKKL8r01xJmQUwfc9Qht6ONBAonP5hsTATseEEZCSYBNMWAH22LABdxiwA1wd+tqUVGK5SruGQbUrvNQj9zSeEDtEhopaRwgB1fSY4N6fhXIAyZQoSV9JjiygiQTKFZQYIKCFXz+/5DKVpBhgqpsea1t9sK1VoHKsdJax6z/SfNsPq23GJWsprl2K0KDflJRkpk25/amBwOGo9xkPJ2OJ7nRkAN8d7PmpLPdYwa4OM1aF+7l9Y4Gmg34J40mGTyWICadFBF8QWzuSeAZEnKCB6kKCVRSWHAGiXnDgfQHGTzcYMA7pOTKBMbP+JYGjA/vEOwuL89p4GlZZQNesc16AIJiwA8kh0h9ZNYOREVAYH5Qh/jrt/ROwLnP3Qg4F91GnGsejoDZzkgJu416nLptdr+kl/4C99gtGprKFbQAAAAASUVORK5CYII=',
  'base64',
);

const neutralIcon: StoredObject = {
  body: NEUTRAL_ICON,
  contentType: 'image/png',
  cacheControl: 'public, max-age=60, stale-while-revalidate=600',
  etag: `"${createHash('md5').update(NEUTRAL_ICON).digest('hex')}"`,
};

const OG_PATH = /^\/og\/[0-9a-f]{16}\.png$/;

/**
 * A neutral 1200 × 630 link preview (the neutral icon's figure), for a picture a page's HTML
 * names but storage does not hold: a page rendered again by a template republish before a
 * publish drew its picture (pages published before pictures were made, or after a change of
 * a template's colours). Kept a minute, so the page's own picture follows its next publish.
 */
const neutralPreview: StoredObject = (() => {
  const body = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAABLAAAAJ2BAMAAAC9bmZvAAAAMFBMVEVHVWnL1eEzQVWtucagrLrG0N1ZZ3q9yNV8iJlLWWxSYHOI' +
      'lKRlcoW2wc6UoK9reIqnidOzAAAACXBIWXMAAAsTAAALEwEAmpwYAAAII0lEQVR42u3dz4uVVRgH8AeKyTtKcrjdbr+uQn9BAy6M' +
      'QhQpiiK4UPZjNUGRm6xZKNSmCbVNLQqLForNRghCKPpBtioKqkWLWSZJhraw1bgRWgRlaDjqzNwf73m5p/fz+ROe98t9z/uc55wb' +
      'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
      'AAAAAAAAAAAAAAAAAAAAAAAAwP9W66U3z+489US/88SpLY99eeFtFWF80z+cmUvLdLe9taAujOXIZ1el6lK2HvlRbRjZB5/20wo6' +
      '9/2pPoxk6sCKsfo3Wg/NqhHD2z2T1tD7QpUYds2+Pw1gq1U8Q9n4QBrI40tqxeA+mksD6n6lWgxqTz8NrPOgejGY79JQHlUxBvFt' +
      'GtL9asbanktJspiEXKVkncUaDvdHCVb6Q+VYzbq5kXKVuvNqx8qmZtKI2rOqx0pan6eR3Wn+j5X8lMbwi/qxwsI9jeWEClLtAssy' +
      'i1UcTGN6Sg251tE0todVkatNz4wfLC9DrvF9qsBr6shy61Il5lWSZT6pJlibVJIrvZsqYv1OxSv3S+v3BdXkP8dTZU6qJpdNLVYX' +
      'rK6WA5e9kCq0Tz259IM1V2Ww/GSR4wfLTxaXPwkXqw1Wz4chFX8S+jDkP62ZqoPVNqVMxI2pcttVlfit+mDZMaSqsQZDDix3Pkew' +
      'NqtraI5moEnaeIdSFj+rrKV7DreorKV7snynas/nCtYutQ1d9wx03xttfcrmY9VtsG/yBesu1W3wm3AxX7B63oXehN6FlPFN6Luw' +
      '2WZyBqutvqE7qkdKdd7PG6xXVTjsE2Zwpwo301Q/b7A6s2ocht2T0Xdi0tvumu9NtiN3sAxlNdKGlN3XqtxAN+QP1j2qbIllkUUh' +
      'SyyLrGZ2sVINdLKa5+Y6gnVanRvnWB3Bekadwz8G2C6kAot1BKurzk2zMdViSaXDDrR9aMpYu1u9N8/r9QTrNpUO5yicqCBK6Lvr' +
      'vYejqo6tEmXMzJicaaJn6wrWrWrto9BnITH5w1hGshqo1a8rWB23GYWdQgcqKKTboN+g26DfwNjeqy9YT6t2OPrlCBgx8XPJppO1' +
      'sTSyqMRcfcEy9t4g06lGC+odLprRISUm9rpklyeH4/WO2RMlNt613pvkpjqD9bJ6N8Y7dQbrdvUOg8mGkxnD+TqDtVm9w8S7qXei' +
      'iD1ou9Dh35ny2KTeYbjBeAOCRTTzqhkXzoT7R/PpqXeY8zPph2Axafp1Bquj3oIlWIwj1Uq9BUuw8CpEsNBu0G5AsAhbOoRNaJvQ' +
      'hLEZBIswmmw0mXCYgnD8i3Bg1YFVwhF7wqUghGuMXGNEuHiNcFUk4XJbl9sSruMm/IEAYdLPnB/hT5oIfytH+CPM5I8wCX/dS/iz' +
      'cYq1vr5gfazaDbJRf5QcWrUdsu+8rdoaWdpYRCFT7ybew3ByDneotX6DbgPF9Bvm1bpRpuoK1qxahwtnXDVDIZ+FPgqb5lg9wXpG' +
      'pRvmxnqCtV2lw25hBksqHe4hNfBOlDGdbC7Z6t3anSjmmP1pdQ69d313ooyRLMNY4QiYo19EKZMz21U5XDnjIAWFLLIssSyyLLGI' +
      'YvahLbEa2snKfLiwo4sVtgttFFKZ9/MG6xUVDpcnO6BDlHGiwjmK5no+Z7B2qW84tupiLCrUyjif3HN/UWi+a7tTyrvQm7DR78Js' +
      '34Vtb0Lfhb4JiVJ6pPNq22y/5cnVJpVtuEN5gnWvyjbc1FyWo/WzKtt053MEa7O6Wr5bulPK8t3SnSyj79tVlQzdd113LjpedbBO' +
      'qin/mK54eKa3oKZc9EK1wdqnokT1TVLNUS570Q8WWX6yFv1gMeEfhj4JueLDsLJeVtsnIVd4t6pgPayWRPUXhNglJHIMOcyrJMt9' +
      'X0WuXlNHMqzf21oNXOOolTtZHBw3V0+pIdcxNeNFSA6HxwvWCRXk+n4aJ1e/qB8raH0+xh3J5pHJsMyywGI160ac+evOqx2rLuBH' +
      '+ruKzjmVY3XPjRKsB9WNDMm6X9VY23dyxSQk61EVYzB7hljBd6yvGNhHAx/b6X2lWgxuw++D5erxJbViGNP7B8nV1gWVYkgfrrm9' +
      '0/tClRje1IFV1/Cdh/xcMZojn64Yrc59P6oPo0frs+vuSncfESvGXMX/cOaqbHW3veUlSAVaL715duepvf3Ok6e2PPblBRN9AAAA' +
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAwqN0759LE6255w5MqSmt/KsRWD6skf6Vi/OppleNoKsg5z6sU0zMlBau94IkV4ngqyklPrJCV' +
      '+0xZwWr7n7oy3JwKc9ozK8L50oK12TMr4k24WFqweh5aCdal4sx7agW4obxg3eOpFeDZ8oJ1q6dWgNfLC9ZtnloBdpQXrFs8tQIs' +
      'lhestqdWgLnygtX11ArQLy9YHU9NsATLq9CrEIt3tBu0GzRINUgJWzqETWib0GFsZtIteWo+Cw36hdFko8mEwxSE41+Of4UDq8mB' +
      'VcIRe8KlIMmlIOEao+QaI8bl4jUi01WReyc/VU+6KhIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKjQ3ZCBYCFYCBaCBYKFYCFYIFgIFoIFgoVgIVggWAgWggWC' +
      'hWAhWCBYCBaCBYKFYCFYIFgIFoIFgsWE+RsccMHoJTbCVwAAAABJRU5ErkJggg==',
    'base64',
  );
  return {
    body,
    contentType: 'image/png',
    cacheControl: 'public, max-age=60, stale-while-revalidate=600',
    etag: `"${createHash('md5').update(body).digest('hex')}"`,
  };
})();

/**
 * Every page host's robots.txt, a router answer rather than a stored file, since it is the
 * same for all: every page is for crawlers (a page for adults is marked by its `rating` meta,
 * not hidden), the view pixel and tap pings are not; and it names the site's sitemap, which
 * lists the page's address from another host, as the sitemaps protocol allows when the page's
 * own host's robots.txt points to it.
 */
export function pageHostRobots(siteUrl: string): string {
  return `User-agent: *\nDisallow: /_/v\nDisallow: /_/t/\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
}

let robots: { siteUrl: string; object: StoredObject } | undefined;

function robotsFor(siteUrl: string): StoredObject {
  if (robots?.siteUrl !== siteUrl) {
    robots = { siteUrl, object: fixed(pageHostRobots(siteUrl), 'text/plain; charset=utf-8', 'public, max-age=3600') };
  }
  return robots.object;
}

function fixed(body: string, contentType: string, cacheControl: string): StoredObject {
  const bytes = Buffer.from(body);
  return { body: bytes, contentType, cacheControl, etag: `"${createHash('md5').update(bytes).digest('hex')}"` };
}

/**
 * The stored key a path of a page host names (null: none, the same file for every page),
 * and what to answer when nothing is stored; null for any other path.
 */
export function hostFile(
  name: string,
  path: string,
  siteUrl: string,
): { key: string | null; fallback: StoredObject | null } | null {
  const keys = pageKeys(name);
  switch (path) {
    case '/robots.txt':
      return { key: null, fallback: robotsFor(siteUrl) };
    case '/favicon.ico':
    case '/favicon.png':
      return { key: keys.favicon, fallback: neutralIcon };
    case '/apple-touch-icon.png':
    case '/apple-touch-icon-precomposed.png':
      return { key: keys.touchIcon, fallback: neutralIcon };
    case '/llms.txt':
      return { key: keys.llms, fallback: null };
    case `/${CONTACT_FILE}`:
      return { key: keys.contact, fallback: null };
    default:
      if (path.startsWith(FONT_PATH)) return { key: null, fallback: fontAnswer(path) };
      // The link-preview picture, named by the hash of what it shows.
      return OG_PATH.test(path) ? { key: ogImageKey(name, path.slice(4, -4)), fallback: neutralPreview } : null;
  }
}
