/** What the passkey forms share: the browser's answer from a hidden field, and a challenge answered as JSON. */
import type Koa from 'koa';
import { AppError } from '../core/errors.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';

/** The browser's WebAuthn answer from a form's hidden field, or the error that says what is missing. */
export function browserAnswer(input: Form): unknown {
  try {
    return JSON.parse(input.response ?? '');
  } catch {
    throw new AppError('invalid_fields', {
      field: 'response',
      detail: 'response',
      hint: 'Passkeys need a browser that supports them, with JavaScript on.',
    });
  }
}

/** A challenge as JSON for the script (after the form's CSRF check); an error as the API's error object. */
export async function challengeAnswer(d: DashboardContext, ctx: Koa.Context, make: (input: Form) => Promise<unknown>) {
  ctx.set('Cache-Control', 'no-store');
  try {
    ctx.body = await make(await d.fields(ctx));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    ctx.status = err.status;
    ctx.body = { error: err.toBody() };
  }
}
