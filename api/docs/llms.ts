/**
 * GET /llms.txt: how an agent makes and edits a page, in the llms.txt structure
 * (https://llmstxt.org): the name as H1, a one-line summary as a quote, the guide as paragraphs
 * without headings, then H2 sections that are lists of `- [name](url): notes`. Its list of MCP
 * tools is made from the tools' own declarations (api/mcp/tool.ts, handed in by ops/start/web.ts), so
 * a tool declared is a tool listed.
 */
import type { Config } from '../../core/config.js';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';

/** What llms.txt tells of an MCP tool: the fields of its `tool()` declaration. */
export interface ToolEntry {
  name: string;
  title: string;
  description: string;
  auth: 'key' | 'optional-key';
}

/** One line of a list's notes: the declaration's text with its line breaks and runs of spaces made single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The MCP section's list: each tool by name, linked to the endpoint, with its title, whether it needs a key, and what it does. */
function toolList(base: string, tools: readonly ToolEntry[]): string {
  return tools
    .map((t) => {
      const needs = t.auth === 'key' ? 'needs an API key' : 'no key needed';
      return `- [${t.name}](${base}/mcp): ${oneLine(t.title)} (${needs}). ${oneLine(t.description)}`;
    })
    .join('\n');
}

export function llmsTxt(
  config: Pick<Config, 'baseUrl' | 'pageScheme' | 'pageDomain'>,
  tools: readonly ToolEntry[],
): string {
  const base = config.baseUrl;
  return `# linkpage

> Link-in-bio pages for people, made by programs. One call creates an account, a page, an API key and a claim link; the page is published at ${config.pageScheme}//<username>.${config.pageDomain}/, as Markdown at …/page.md (and at / for Accept: text/markdown), and introduced to language models at …/llms.txt.

**Create a page** (no key needed):

\`\`\`http
POST ${base}/api/agent/pages
Content-Type: application/json
Idempotency-Key: <any unique string, so a retry cannot create two pages>

{"username": "ada-lovelace",
 "page": {"displayName": "Ada Lovelace", "bio": "Analyst", "templateId": "editorial",
          "blocks": [{"type": "link", "label": "My essays", "url": "https://example.com/essays"},
                     {"type": "social", "platform": "github", "url": "https://github.com/ada"},
                     {"type": "text", "content": "Say hello", "variant": "heading"}]}}
\`\`\`

The 201 answer holds apiKey (shown once; keep it), page (with its id and url) and claimUrl. Give claimUrl to the person who will own the page: they open it in a browser, set an e-mail and password, and manage the page and its keys in the dashboard (${base}/dashboard) from then on; your key keeps working. Send the key on every other call as "Authorization: Bearer <apiKey>".

Check first, without writing anything: POST ${base}/api/agent/pages/validate with the same body lists every problem at once. Check a name: GET ${base}/api/username/check?u=<name>.

**Edit it:**

- GET ${base}/api/profiles/<id> reads every field.
- PATCH ${base}/api/profiles/<id> changes only the fields sent; "blocks", when sent, replaces the whole list, and each stored block needs id, order, visible and type (read them back first). "isPublished": false takes the page offline. "publishPending": true in an answer means the change is stored but storage refused it for now: it goes online by itself once storage takes it (nothing to resend; sending the field back is harmless).
- Several writers on one page (other agents, the person who claimed it): every page has a "version" (also its ETag). Send If-Match: "<version>" with PATCH, PUT or DELETE (MCP: expectedVersion) and the change is refused with 412 precondition_failed when someone changed the page since your read; read it again and redo your change. Without If-Match the last write wins.
- Undo: GET ${base}/api/profiles/<id>/versions lists each change (version, time, who, summary); GET …/versions/<n> shows one as it was; POST …/versions/<n>/restore makes the page that version again (a new version, published). MCP: list_versions, get_version, restore_version.
- PUT replaces every field (an omitted theme, or omitted theme fields, take their defaults); DELETE removes the page.
- GET ${base}/api/profiles/<id>/stats?days=30 (or ?from=YYYY-MM-DD&to=YYYY-MM-DD) gives views, unique visitors, taps and click-through per block, referrers, countries, devices, browsers, os, campaigns, and markdownReads (who read the page as Markdown: agents by name, other programs, people). GET …/stats.csv gives the daily rows as CSV.
- GET ${base}/api/agent/me lists the account's pages; POST ${base}/api/agent/claim-link makes a fresh claim link.
- GET ${base}/api/account/export answers everything stored about the account (pages and their history, daily statistics, images, keys, sessions; never a secret). A key cannot delete the account: its owner does that in the dashboard.
- Link blocks in reads carry linkStatus, what the nightly link check found: null (not checked yet), {state: "ok"}, "failing" (failed last night), "broken" (failed two nights in a row; since, status, detail) or "unknown" (the site refuses robots). Sending it back is harmless: it is dropped.

**Hear of changes (webhooks).** POST ${base}/api/webhooks with {"url": "https://your.host/hook", "events": ["account.claimed", "page.published", "page.unpublished", "page.deleted", "page.banned", "links.broken"]} (any of them). The answer holds secret (shown once). Each event is POSTed to url as {id, type, time, object}, signed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,<base64> of HMAC-SHA256 over "<id>.<timestamp>.<raw body>" keyed with the base64-decoded whsec_ secret). Verify it with a Standard Webhooks library (npm standardwebhooks: new Webhook(secret).verify(rawBody, headers)), drop ids you have seen, answer 2xx at once. Failures are retried with backoff for 3 days; an endpoint failing for 3 days, or answering 410 Gone, is turned off (PATCH ${base}/api/webhooks/<id> {"enabled": true} turns it on). GET ${base}/api/webhooks/<id>/deliveries shows the last 50 deliveries; POST ${base}/api/webhooks/<id>/secret rolls the secret (both sign for 24 hours). account.claimed tells you when the person you gave the claim link to has claimed the account.

**Custom domain.** PUT ${base}/api/profiles/<id>/domain with {"domain": "links.example.com"} (MCP: attach_domain) answers state and dns: publish the TXT record _linkpage.<domain> with the value given (unique to your account and the domain) and the CNAME to the page host (an apex: the A/AAAA records, or ALIAS). It is checked at once, then with backoff for 7 days, then nightly once active. Send the same PUT again to check at once. GET …/domain (get_domain) shows state (pending, active, failing), checkedAt, found and problem (txt_missing, txt_mismatch, dns_error); DELETE …/domain (detach_domain) detaches it. Once active the page is served there, its own name redirects there (301), and the page's url (API, webhooks, sitemap, canonical link) is ${config.pageScheme}//<domain>/. A failing domain (its record gone) serves for a grace period, then stops. One domain per page, one page per domain. Refused: bad_domain, domain_is_ip, domain_reserved (the service's own hosts), domain_not_public (not under a public suffix), domain_taken (409: another page has it, or another account holds it with its record in DNS; when their record is gone yours waits as pending until it is found).

**Pictures and links from elsewhere:**

- On create: "avatarUrl" (a public image URL) becomes the avatar; "importFromUrl" (a public link page, like a Linktree page) adds its links as link blocks after yours. All or nothing: if a fetch fails, nothing is created.
- POST ${base}/api/upload with {"url": "<image URL>", "kind": "avatar" | "background" | "card"}, or multipart/form-data with the fields kind and file: answers {key, url}. Put key in avatar, theme.backgroundImage or a link block's image. JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC; 8 MB (avatar, card), 30 MB (background).
- POST ${base}/api/import/page with {"url": "<link page>"}: answers {links: [{label, url}]}, nothing written.
- POST ${base}/api/import/<network> with {"handle": "<handle>"} (github, bluesky, instagram, threads, tiktok, youtube, x, twitch, soundcloud): answers {displayName, bio, avatar} ready for PATCH. 10 per day.

**Blocks:** link (label, url; optional note, badge, featured, adult, pulse, path = a short link /<path>, apps {ios, android}), social (platform, url), socialRow (items [{platform, url}], at most 20), embed (provider youtube | spotify | soundcloud | applemusic | tiktok, url), messenger (platform telegram | whatsapp | viber, handle), text (content, variant heading | paragraph). At most 80 blocks. URLs must be http(s) with a real host name, under a public suffix (example.com, example.co.uk; not localhost, .test or .local); they are stored as a browser writes them (a space becomes %20, the host lowercased, an empty path /); a social or socialRow item's url may also be mailto:you@example.com (an e-mail button; platform "email") and a feed is platform "rss". showFrom / showUntil (UTC, like 2025-03-01T09:00:00Z) schedule a block.

Templates: ${TEMPLATE_IDS.join(', ')}.

Page settings beside the blocks: "adult": true puts the whole page behind an 18+ notice that visitors confirm first (a link's own "adult" does the same for one link); "theme": {"scheme": "auto"} shows the template's light or dark colours as the visitor's device is set ("fixed", the default, keeps the template's own); "branding": false leaves "Made with linkpage" off the page's foot and its share picture where the service lets owners choose (elsewhere the service decides and the field is kept for later).

**Errors.** Every error is JSON {code, hint, field?, detail?, suggestions?, retryAfter?}. Branch on code: invalid_fields (detail names the field, like page.blocks[2].label), bad_url, bad_path, username_taken (take one of suggestions), rate_limited (wait retryAfter seconds), precondition_failed (412: the page changed since the version you sent; read it again), unavailable (503: the database or storage is down for a moment; retry after the Retry-After header's seconds, a create with the same Idempotency-Key), not_found, unauthorized (401: the key is not valid), bad_credentials (403: a wrong currentPassword on PATCH /api/account; the key is fine), blocked (400: the host is private, refused the connection, or answered 401/403/451), unreachable (502: it could not be fetched), bad_domain, domain_is_ip, domain_reserved, domain_not_public, domain_taken (custom domains, above), …

**Roles.** A key is owner, editor, contributor or viewer (GET ${base}/api/agent/me says which), and a key below owner may be kept to some pages (the others answer 404 not_found). Beyond its role a call is 403 forbidden, detail naming the role needed. A contributor's PATCH or PUT of a page answers 202 with a proposal and changes nothing: an owner or editor approves it (POST ${base}/api/profiles/<id>/proposals/<proposal>/approve; 409 proposal_conflict when the page changed since, unless {"rebase": true}) or declines it; GET ${base}/api/profiles/<id>/proposals lists them. POST ${base}/api/undo with {"author": "key:<id>", "since": "<ISO time>"} (owner) puts back every page one key changed since then.

**MCP.** The same actions as tools over MCP (Streamable HTTP) at ${base}/mcp, listed below from their own declarations. The tools that say "no key needed" work without one; send the key as "Authorization: Bearer <apiKey>" once create_page has returned one.

For a person's own assistant (connectors that sign in with OAuth): ${base}/mcp/account, the same tools for the person's account after they approve the app in the dashboard; without credentials it answers 401 with WWW-Authenticate naming ${base}/.well-known/oauth-protected-resource/mcp/account. Scopes: pages:read, pages:write, pages:propose, stats:read (an app let only read and propose acts as a contributor). Each address describes itself in a server card at ${base}/mcp/server-card and ${base}/mcp/account/server-card, both listed by ${base}/.well-known/ai-catalog.json.

## Docs

- [OpenAPI 3.0.3 document](${base}/openapi.json): every REST endpoint, its fields, answers and error codes
- [OpenAPI 3.1 document](${base}/openapi-3.1.json): the same, with the webhook events the service sends
- [API reference](${base}/docs): the same, readable in a browser

## MCP tools

${toolList(base, tools)}

## Optional

- [Sitemap](${base}/sitemap.xml): every published page, for crawlers
- [Home](${base}/): what the service is, for people
`;
}
