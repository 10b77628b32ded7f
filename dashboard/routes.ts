/**
 * The dashboard for people: sign-up, log-in, claim, pages, the editor,
 * statistics, API keys, webhooks and the account. Server-rendered with Eta; every form posts to the same
 * origin with a CSRF token and works without JavaScript. The same commands as the JSON API do
 * the work, so a rule holds the same here and there; their errors are shown on the form.
 *
 * This file mounts the screens (one file each) on one router; what they share is in context.ts.
 */

import Router from '@koa/router';
import { AppError } from '../core/errors.js';
import type { Limiter } from '../core/limiter.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { pageUrl, type Services } from '../core/services.js';
import { outageError } from '../platform/edge/errors.js';
import type { OAuthProvider } from '../platform/edge/oauth/server.js';
import { homeOgImage, serviceIcon } from '../renderer/ogHome.js';
import { SERVICE_NAME } from '../renderer/ogImage.js';
import { accountRoutes } from './account.js';
import { authRoutes } from './auth.js';
import { claimRoutes } from './claim.js';
import { connectRoutes } from './connect.js';
import { dashboardContext } from './context.js';
import { domainRoutes } from './domain.js';
import { editorRoutes } from './editor.js';
import { EXAMPLES, examplesRoutes } from './examples.js';
import { freshProofRoutes } from './freshProof.js';
import { historyRoutes } from './history.js';
import { imagesRoutes } from './images.js';
import { keysRoutes } from './keys.js';
import { linkTitleRoutes } from './linkTitle.js';
import { membersRoutes } from './members.js';
import { pagesRoutes } from './pages.js';
import { passkeySignUpRoutes } from './passkeySignUp.js';
import { passkeysRoutes } from './passkeys.js';
import { passwordRoutes } from './password.js';
import { previewRoutes } from './preview.js';
import { proposalRoutes } from './proposals.js';
import { secondStepRoutes } from './secondStep.js';
import { sessionsRoutes } from './sessions.js';
import { statsRoutes } from './stats.js';
import { totpRoutes } from './totp.js';
import { webhooksRoutes } from './webhooks.js';
import { wordsRoutes } from './words.js';

export function dashboardRouter(s: Services, limiter: Limiter, provider: OAuthProvider): Router {
  const d = dashboardContext(s, limiter);
  const router = new Router();

  const showLogin = authRoutes(router, d);
  const withFreshProof = freshProofRoutes(router, d);
  claimRoutes(router, d);
  pagesRoutes(router, d);
  editorRoutes(router, d);
  previewRoutes(router, d);
  linkTitleRoutes(router, d);
  imagesRoutes(router, d);
  statsRoutes(router, d);
  wordsRoutes(router);
  examplesRoutes(router, s);
  historyRoutes(router, d);
  proposalRoutes(router, d);
  domainRoutes(router, d);
  keysRoutes(router, d, provider, withFreshProof);
  membersRoutes(router, d, withFreshProof);
  connectRoutes(router, d, provider, withFreshProof);
  webhooksRoutes(router, d, withFreshProof);
  const showAccount = accountRoutes(router, d, withFreshProof);
  passkeysRoutes(router, d, showAccount, showLogin, withFreshProof);
  passkeySignUpRoutes(router, d);
  secondStepRoutes(router, d);
  totpRoutes(router, d, showAccount, withFreshProof);
  sessionsRoutes(router, d, showAccount);
  passwordRoutes(router, d);

  // The home page: what the service is, for people (sign-up, log-in) and for agents.
  router.get('/', async (ctx) =>
    d.show(ctx, 'home', {
      title: 'Link-in-bio pages for people and agents',
      example: pageUrl(s.config, 'yourname'),
      templates: TEMPLATE_IDS.length,
      base: s.config.baseUrl,
      examples: EXAMPLES.map((e) => ({ templateId: e.templateId, name: e.profile.displayName, who: e.who })),
      // What a link to the home page shows where it is shared.
      share: {
        description: `One page for all your links, at its own address, in one of ${TEMPLATE_IDS.length} templates; made by people in the browser or by agents over an API and MCP.`,
        url: `${s.config.baseUrl}/`,
        image: `${s.config.baseUrl}/og.png`,
        siteName: SERVICE_NAME,
      },
    }),
  );

  // The home page's link-preview picture, drawn once per process.
  router.get('/og.png', async (ctx) => {
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await homeOgImage();
  });
  // The service's icon: what a template's page asks for when the editor previews it here, and
  // what browsers ask the apex for on their own (a PNG there too, as page hosts answer it).
  router.get(['/favicon.png', '/favicon.ico'], async (ctx) => {
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await serviceIcon();
  });

  // A form whose CSRF token or session has expired, or any error from a command the routes do
  // not catch themselves, is shown as a page rather than as JSON.
  const wrapped = new Router();
  wrapped.use(async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const err = caught instanceof AppError ? caught : outageError(caught);
      if (!err) throw caught;
      if (err.fields.retryAfter !== undefined) ctx.set('Retry-After', String(err.fields.retryAfter));
      // A role that does not allow the action says which one does (core/rules/roles.ts).
      const role = err.code === 'forbidden' && err.fields.detail?.startsWith('needs the ');
      const message = role ? `Your role here does not allow this: it ${err.fields.detail}.` : err.message;
      await d.show(ctx, 'message', { title: 'Something is not right', message }, err.status);
    }
  });
  wrapped.use(router.routes(), router.allowedMethods());
  return wrapped;
}
