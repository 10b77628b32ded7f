/** The dashboard's scripts: files of its own origin (its policy runs no inline script). */
import type Router from '@koa/router';

/** Serves `body` as a script at `path`, kept by browsers for a day. */
export function serveScript(router: Router, path: string, body: string): void {
  router.get(path, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = body;
  });
}
