/**
 * Connecting an app with OAuth (platform/edge/oauth/): the consent screen the authorization server sends
 * the person to, which names the app and what it may do and is answered by the logged-in
 * person (the grant is theirs), and disconnecting an app from the API keys screen.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { loadAccount } from '../core/commands/account.js';
import { AppError } from '../core/errors.js';
import { knownScopes, SCOPES } from '../core/rules/scopes.js';
import { disconnectApp, keepGrantToPages } from '../platform/edge/oauth/grants.js';
import { documentHost } from '../platform/edge/oauth/metadataDocuments.js';
import { type OAuthProvider, oauthUrls } from '../platform/edge/oauth/server.js';
import { pagesRepo } from '../platform/store/pages.js';
import type { DashboardContext } from './context.js';
import { pageField, tickedPages } from './forms.js';
import type { WithFreshProof } from './freshProof.js';

const expired = () =>
  new AppError('link_invalid', { hint: 'This request to connect an app has expired. Start again from the app.' });

export function connectRoutes(
  router: Router,
  d: DashboardContext,
  oauth: OAuthProvider,
  withFreshProof: WithFreshProof,
): void {
  const { s, form, show, personRoute, fields, back } = d;

  const accountPages = async (accountId: string) =>
    (await pagesRepo(s.db).listByAccount(accountId)).map((p) => ({ id: p.id, username: p.username }));

  /** The interaction of this browser and address, its app and the scopes it asks for. */
  async function request(ctx: Koa.Context) {
    const provider = await oauth();
    const interaction = await provider.interactionDetails(ctx.req, ctx.res).catch(() => undefined);
    if (!interaction || interaction.uid !== ctx.params.uid) throw expired();
    const clientId = interaction.params.client_id ?? '';
    // An app known by its metadata document was fetched for the authorization request; gone since, it is gone.
    const client = await provider.Client.find(clientId).catch(() => undefined);
    if (!client) throw expired();
    const scopes = knownScopes((interaction.params.scope ?? '').split(' '));
    // The one resource there is (the authorization server refused any other before this screen).
    const { resource } = oauthUrls(s.config.baseUrl);
    return { provider, interaction, client, clientId, scopes, resource };
  }

  router.get(
    '/dashboard/connect/:uid',
    personRoute(async (ctx, accountId) => {
      const { client, interaction, scopes, uid } = { ...(await request(ctx)), uid: ctx.params.uid };
      const account = await loadAccount(s, accountId);
      // Where this request's code goes: its redirect_uri, which the authorization server checked
      // against the app's registered ones before this screen (an app may register several).
      const redirectHost = new URL(String(interaction.params.redirect_uri)).host;
      await show(ctx, 'connect', {
        title: `Connect ${client.clientName ?? 'an app'}`,
        uid,
        // Whose account the app gets: the person logged in to the dashboard.
        who: account.email ?? 'your account (no e-mail yet)',
        app: {
          name: client.clientName ?? 'An unnamed app',
          uri: client.clientUri,
          redirectHost,
          // An app known by its metadata document: the host that publishes its name and addresses.
          documentHost: documentHost(client.clientId),
        },
        scopes: scopes.map((name) => ({ name, text: SCOPES[name] })),
        pages: await accountPages(accountId),
        pageField,
      });
    }),
  );

  router.post(
    '/dashboard/connect/:uid',
    form,
    personRoute(async (ctx, accountId) => {
      const input = await fields(ctx);
      const { provider, client, clientId, scopes, resource } = await request(ctx);
      const answer = async (result: Record<string, unknown>) => {
        const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
        // Back to the app by a link and a refresh, not a redirect of this form: the dashboard's
        // policy lets forms send only to this site, and the app's address is elsewhere.
        await show(ctx, 'message', {
          title: input.decision === 'allow' ? `${client.clientName ?? 'The app'} is connected` : 'Not connected',
          message: 'Taking you back to the app.',
          link: { href: returnTo, text: 'Continue' },
          refresh: returnTo,
        });
      };
      if (input.decision !== 'allow') {
        return answer({ error: 'access_denied', error_description: 'The person did not allow the app in.' });
      }
      // Letting an app in gives it the account: a fresh proof first (saying no needs none).
      await withFreshProof(ctx, input, async () => {
        const allowed = scopes.filter((name) => input[name] === 'on');
        // Pages ticked: the app is kept to those (none ticked: every page, now and later).
        const own = new Set((await accountPages(accountId)).map((p) => p.id));
        const pages = tickedPages(input).filter((id) => own.has(id));
        const grant = new provider.Grant({ accountId, clientId });
        if (allowed.length > 0) grant.addResourceScope(resource, allowed.join(' '));
        // The library knows the scopes as its own too. OpenID's `openid` is never granted: the
        // service signs nobody in elsewhere, so no ID token is issued.
        if (allowed.length > 0) grant.addOIDCScope(allowed.join(' '));
        // The person is the dashboard's, whoever the authorization server last saw.
        const grantId = await grant.save();
        if (pages.length > 0) await keepGrantToPages(s, accountId, grantId, pages);
        await answer({ login: { accountId }, consent: { grantId } });
      });
    }),
  );

  router.post(
    '/dashboard/apps/:grantId/disconnect',
    form,
    d.accountRoute(async (ctx, accountId) => {
      await fields(ctx);
      if (!(await disconnectApp(s, accountId, ctx.params.grantId))) throw new AppError('not_found');
      back(ctx, '/dashboard/keys', 'The app is disconnected. Its tokens are refused from now on.');
    }, 'owner'),
  );
}
