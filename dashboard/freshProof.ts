/**
 * Fresh proof before the irreversible (core/rules/freshProof.ts): deleting the account, a new
 * password, a new API key, a new webhook and letting an app in. On a session whose proof is
 * stale the action is not done; the same address answers a page that asks for the proof in
 * place (the password, a code, or a passkey), its forms carrying the first form's fields so that
 * proving sends the action again with nothing lost. No log-out, and no script needed but for a
 * passkey (as at log-in).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { checkProof, type Proof, proofKinds } from '../core/commands/freshProof.js';
import { signInOptions } from '../core/commands/passkeys.js';
import { AppError } from '../core/errors.js';
import { FRESH_PROOF_MS } from '../core/rules/freshProof.js';
import { readSession, sessionFresh, sessionProved } from '../platform/edge/sessions.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';
import { challengeAnswer } from './passkeyForms.js';

/** The fields a proof adds to a form; every other field is the action's own and is sent again. */
const PROOF_FIELDS = new Set(['proofPassword', 'proofCode', 'proofChallengeId', 'proofResponse']);

/**
 * Runs `act` on a fresh session, or after the proof the form carries; else asks for one in place.
 * The proof is always the person's own (their password, code or passkey), whichever account they work in.
 */
export type WithFreshProof = (ctx: Koa.Context, input: Form, act: () => Promise<void>) => Promise<void>;

/** The proof a form carries, or null when it carries none. */
function proofFrom(input: Form): Proof | null {
  if (input.proofChallengeId !== undefined) {
    let response: unknown = null;
    try {
      response = JSON.parse(input.proofResponse ?? '');
    } catch {
      throw new AppError('invalid_fields', {
        field: 'proofResponse',
        detail: 'proofResponse',
        hint: 'Passkeys need a browser that supports them, with JavaScript on.',
      });
    }
    return { passkey: { challengeId: input.proofChallengeId, response } };
  }
  if (input.proofCode !== undefined) return { code: input.proofCode };
  if (input.proofPassword !== undefined) return { password: input.proofPassword };
  return null;
}

export function freshProofRoutes(router: Router, d: DashboardContext): WithFreshProof {
  const { s, limiter, form, show, personRoute, fields, back, safeNext } = d;

  async function ask(ctx: Koa.Context, accountId: string, input: Form, error?: AppError) {
    const kept = Object.entries(input)
      .filter(([name]) => !PROOF_FIELDS.has(name))
      .map(([name, value]) => ({ name, value: value ?? '' }));
    await show(
      ctx,
      'freshProof',
      {
        title: 'Confirm it is you',
        action: ctx.path,
        kept,
        kinds: await proofKinds(s, accountId),
        minutes: FRESH_PROOF_MS / 60_000,
        error,
      },
      error?.status ?? 403,
    );
  }

  const withFreshProof: WithFreshProof = async (ctx, input, act) => {
    if (await sessionFresh(s, ctx)) return act();
    const session = await readSession(s, ctx);
    if (!session) throw new AppError('unauthorized');
    const accountId = session.personId;
    try {
      const proof = proofFrom(input);
      if (!proof) return await ask(ctx, accountId, input);
      await checkProof(s, accountId, proof, { limiter, address: ctx.ip });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.fields.retryAfter !== undefined) ctx.set('Retry-After', String(err.fields.retryAfter));
      return ask(ctx, accountId, input, err);
    }
    await sessionProved(s, ctx);
    await act();
  };

  router.post(
    '/dashboard/proof/passkey/options',
    form,
    personRoute((ctx, accountId) => challengeAnswer(d, ctx, () => signInOptions(s, accountId))),
  );

  // Proving on its own, then back to a dashboard address: for what an API call with the session
  // was refused for (proof_required), or a person who wants to prove before starting.
  router.get(
    '/dashboard/prove',
    personRoute((ctx, accountId) => ask(ctx, accountId, { next: safeNext(ctx.query.next as string | undefined) })),
  );
  router.post(
    '/dashboard/prove',
    form,
    personRoute(async (ctx) => {
      const input = await fields(ctx);
      await withFreshProof(ctx, input, async () => back(ctx, safeNext(input.next)));
    }),
  );
  return withFreshProof;
}
