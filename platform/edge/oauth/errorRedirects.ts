/**
 * Authorization errors stay on this site until the person has chosen. A client registers itself
 * with any redirect URI (dynamic registration), so an error sent there straight from the
 * authorization request (a missing code_challenge, an unknown resource…) would make the
 * service's own address an open redirect to wherever the registrant likes, with no person
 * involved. Such an error is answered here instead, as renderError answers it; once the person
 * has been through the consent screen (the `resume` route) the answer, an error included, goes
 * back to the app as OAuth says.
 */
import type Koa from 'koa';

/** What the middleware reads of oidc-provider's context. */
interface OidcContext extends Koa.Context {
  oidc?: { route?: string };
}

export async function errorsStayHere(ctx: OidcContext, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'authorization' || ctx.status < 300 || ctx.status >= 400) return;
  const location = ctx.response.get('location');
  if (!location) return;
  let target: URL;
  try {
    target = new URL(location, 'http://service.invalid');
  } catch {
    return;
  }
  const error = target.searchParams.get('error');
  if (!error) return;
  ctx.remove('location');
  ctx.status = 400;
  ctx.type = 'json';
  ctx.body = {
    error,
    ...(target.searchParams.get('error_description')
      ? { error_description: target.searchParams.get('error_description') }
      : {}),
  };
}
