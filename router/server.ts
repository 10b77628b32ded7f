/**
 * The HTTP entry of a process: page hosts go to the router; on the apex, `/media/…` is served
 * from storage (the embedded default has no CDN) and everything else goes to the API when this
 * process runs it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pageNameFromHost } from '../core/rules/pageHost.js';
import type { Services } from '../core/services.js';
import { nameRoute } from '../platform/edge/requestContext.js';
import { type SecurityHeaders, securityHeaders } from '../platform/edge/securityHeaders.js';
import { isStoredMediaKey } from '../platform/store/layout.js';
import { isOutage, OUTAGE_RETRY_AFTER_S } from '../platform/store/outage.js';
import { pageDomainsRepo } from '../platform/store/pageDomains.js';
import { createCustomHosts, publishedDomain } from './customHosts.js';
import { createDomainCheck, DOMAIN_CHECK } from './domainCheck.js';
import type { PageHost } from './pageHost.js';
import { safeDecode } from './wire.js';

export function createHttpHandler(s: Services, pages: PageHost, api: RequestListener | null): RequestListener {
  const security = securityHeaders(s.config);
  const domainCheck = createDomainCheck(s, security);
  // Pages and media carry no request id (ops/monitoring/front.ts): the line names the host and path.
  // A visitor never gets a 500: storage that cannot be reached, or refuses this process (wrong
  // credentials, a missing bucket), is a 503 with Retry-After, which a CDN in front answers
  // from its stale copy. Anything but an outage is logged as an error for the operator.
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    const where = { err, host: req.headers.host, path: req.url?.slice(0, 200) };
    if (isOutage(err)) s.log.warn(where, 'router: storage unavailable');
    else s.log.error(where, 'router error');
    if (!res.headersSent) {
      res.writeHead(503, {
        ...security.nothing(),
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': String(OUTAGE_RETRY_AFTER_S),
      });
    }
    res.end('Unavailable for a moment; try again.');
  };

  const hosts = createCustomHosts({
    holderName: (domain) => pageDomainsRepo(s.db).holderName(domain),
    ownHosts: [new URL(s.config.baseUrl).hostname, new URL(s.config.mediaUrl).hostname],
  });
  s.publisher.onPublished((p) => hosts.published(p.username, publishedDomain(p.username, p.objects)));

  const page = (req: IncomingMessage, res: ServerResponse, name: string, domain?: string) => {
    nameRoute(req, 'page');
    try {
      pages.handle(req, res, name, domain)?.catch((err) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  };

  /** A request to the apex: the proxy's certificate question, media, the API, or 404. */
  const apex = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(DOMAIN_CHECK) && req.method === 'GET') {
      nameRoute(req, 'domain-check');
      domainCheck(req, res).catch((err) => fail(req, res, err));
      return;
    }
    if (req.url?.startsWith('/media/') && (req.method === 'GET' || req.method === 'HEAD')) {
      nameRoute(req, 'media');
      serveMedia(s, security, req, res).catch((err) => fail(req, res, err));
      return;
    }
    if (api) return api(req, res);
    res.writeHead(404, { ...security.nothing(), 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    const name = pageNameFromHost(req.headers.host, s.config.pageDomain);
    if (name !== null) return page(req, res, name);
    // A custom domain: its page while the domain is known (a minute; router/customHosts.ts), else
    // asked once. A domain that is nobody's is the page host's 404, never the apex's pages: a name
    // still pointing here after its page let it go must not show the dashboard.
    const domain = hosts.candidate(req.headers.host);
    if (domain !== null) {
      const known = hosts.nameNow(domain);
      if (known !== undefined) return page(req, res, known ?? '', domain);
      hosts
        .lookUp(domain)
        .then((found) => page(req, res, found ?? '', domain))
        .catch((err) => fail(req, res, err));
      return;
    }
    apex(req, res);
  };
}

async function serveMedia(s: Services, security: SecurityHeaders, req: IncomingMessage, res: ServerResponse) {
  // A bad escape (`/media/%`, `/media/%E0%A4%A`) names no stored file: 404, like any other.
  const key = safeDecode(new URL(req.url ?? '/', 'http://apex').pathname.slice(1));
  const object = key !== null && isStoredMediaKey(key) ? await s.storage.get(key) : null;
  if (!object) {
    res.writeHead(404, { ...security.media(), 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
    return;
  }
  const headers = {
    ...security.media(),
    'content-type': object.contentType,
    'cache-control': object.cacheControl,
    etag: object.etag,
  };
  if (req.headers['if-none-match'] === object.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  res
    .writeHead(200, { ...headers, 'content-length': object.body.length })
    .end(req.method === 'HEAD' ? undefined : object.body);
}
