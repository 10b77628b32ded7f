/**
 * The few HTML pages the authorization server writes itself (the log-out steps: a form that
 * sends itself on, a confirmation, a "signed out" page) under a policy that lets their own
 * inline script and styles run, by hash, and nothing else: under the answers' default policy
 * (`default-src 'none'`) the log-out page was blank, its self-sending script refused.
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { escapeHtml } from '../../../renderer/escape.js';
import { styleHashes } from '../securityHeaders.js';

const SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** The CSP sources of the markup's inline scripts, as styleHashes gives its styles'. */
const scriptHashes = (html: string) =>
  [...new Set([...html.matchAll(SCRIPT)].map((m) => createHash('sha256').update(m[1], 'utf8').digest('base64')))].map(
    (hash) => `'sha256-${hash}'`,
  );

export async function ownPagesPolicy(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (typeof ctx.body !== 'string' || !ctx.response.is('html')) return;
  const scripts = scriptHashes(ctx.body);
  const styles = styleHashes(ctx.body);
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      ...(scripts.length > 0 ? [`script-src ${scripts.join(' ')}`] : []),
      ...(styles.length > 0 ? [`style-src ${styles.join(' ')}`] : []),
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
}

const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f6f8;color:#1b1b1f}main{max-width:26rem;margin:1rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}button{font:inherit;padding:.6rem 1rem;margin:.25rem .5rem .25rem 0;border-radius:8px;border:1px solid #4338ca;background:#4338ca;color:#fff;cursor:pointer}button.quiet{background:#fff;color:#4338ca}@media (prefers-color-scheme:dark){body{background:#111114;color:#eee}main{background:#1d1d22}button.quiet{background:#1d1d22;color:#c7c4ff}}';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;

/** The log-out question, in the service's words (the library's default loads a web font). */
export async function logoutSource(ctx: Koa.Context, form: string): Promise<void> {
  ctx.type = 'html';
  ctx.body = page(
    'Sign out?',
    `<h1>Sign out of the connected app?</h1>${form}<p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign out</button><button class="quiet" type="submit" form="op.logoutForm">No, stay signed in</button></p>`,
  );
}

/** After the log-out. */
export async function postLogoutSuccessSource(ctx: Koa.Context & { oidc?: { client?: { clientName?: string } } }) {
  const app = ctx.oidc?.client?.clientName;
  ctx.type = 'html';
  ctx.body = page(
    'Signed out',
    `<h1>Signed out</h1><p>You are signed out${app ? ` of ${escapeHtml(app)}` : ''}. You can close this page.</p>`,
  );
}
