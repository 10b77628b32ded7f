/**
 * What the accessibility bench signs in with, and the screens of passkeys and two-factor
 * sign-in it measures: the fresh-proof prompt (at /dashboard/prove, and in place of a refused
 * action), the second step after a right password, the authenticator app's setup and the
 * recovery codes. Lighthouse opens a screen by its address; a screen that is only ever the
 * answer to a form's POST (the setup, the codes, the prompt in place) is kept as the server
 * answered it and served again at a bench-only address of the same origin, so that its styles
 * and scripts load as they did.
 */
import * as OTPAuth from 'otpauth';
import type { Services } from '../core/services.js';
import { accountsRepo } from '../platform/store/accounts.js';
import { passkeysRepo } from '../platform/store/passkeys.js';

/** A person's browser for setting up: cookies and the last CSRF token. */
export function formClient(base: string) {
  const cookies = new Map<string, string>();
  let csrf = '';
  async function send(method: string, url: string, fields?: Record<string, string>) {
    const res = await fetch(base + url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: fields ? new URLSearchParams({ _csrf: csrf, ...fields }) : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const html = await res.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? csrf;
    return { status: res.status, location: res.headers.get('location') ?? '', html };
  }
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, fields: Record<string, string>) => send('POST', url, fields),
    /** A multipart form with `fields` and one file in `file` (an image upload). */
    async upload(url: string, fields: Record<string, string>, file: Buffer) {
      const form = new FormData();
      for (const [k, v] of Object.entries({ _csrf: csrf, ...fields })) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(file)]), 'picture.jpg');
      const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(base + url, { method: 'POST', redirect: 'manual', headers: { cookie }, body: form });
      await res.text();
      return res.status;
    },
    cookies: () => [...cookies],
  };
}

export type FormClient = ReturnType<typeof formClient>;

/** A screen: its name, its address, the browser whose cookies it needs (none: signed out). */
export type Screen = [name: string, url: string, client: FormClient | null];

/** Where a screen kept from a POST's answer is served again. */
const CAPTURED = '/_bench/';

/**
 * Sets up a second person with the authenticator app on and a passkey, and answers the
 * security screens with the pages kept from POSTs (served by `serveCaptured`).
 */
export async function securityScreens(
  base: string,
  services: Services,
  person: FormClient,
): Promise<{ screens: Screen[]; captured: Map<string, string> }> {
  const captured = new Map<string, string>();
  const keep = (name: string, page: { status: number; html: string }, expected: number) => {
    if (page.status !== expected) throw new Error(`${name}: the server answered ${page.status}, not ${expected}`);
    captured.set(CAPTURED + name, page.html);
    return CAPTURED + name;
  };

  const grace = formClient(base);
  await grace.get('/signup');
  await grace.post('/signup', { email: 'grace@example.com', password: 'correct horse battery' });
  await grace.get('/dashboard/account');
  const setup = await grace.post('/dashboard/totp/start', {});
  const setupUrl = keep('totp-setup', setup, 200);
  const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
  const code = OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    timestamp: services.now().getTime(),
  });
  const codesUrl = keep('recovery-codes', await grace.post('/dashboard/totp/confirm', { code }), 201);

  // A passkey on the account, so that the second step and the proof offer it too (shown, never used).
  const account = await accountsRepo(services.db).findByEmail('grace@example.com');
  if (!account) throw new Error('the second account is missing');
  await passkeysRepo(services.db).insert({
    id: 'benchpasskey000000000000',
    accountId: account.id,
    credentialId: 'bench-credential',
    publicKey: 'bench-public-key',
    counter: 0,
    transports: ['internal'],
    name: 'Bench laptop',
    createdAt: services.now(),
  });

  // A log-in that waits for its second step.
  const pending = formClient(base);
  await pending.get('/login');
  const half = await pending.post('/login', { email: 'grace@example.com', password: 'correct horse battery' });
  if (!half.location.startsWith('/login/second')) throw new Error(`no second step: ${half.status} ${half.location}`);

  // A session whose proof is an hour old: a new API key is refused with the prompt in place.
  await services.db.query(`UPDATE sessions SET proved_at = proved_at - interval '1 hour' WHERE account_id = $1`, [
    account.id,
  ]);
  await grace.get('/dashboard/keys');
  const inPlaceUrl = keep('prove-in-place', await grace.post('/dashboard/keys', { label: 'my assistant' }), 403);

  return {
    screens: [
      ['prove', '/dashboard/prove', person],
      ['prove-in-place', inPlaceUrl, grace],
      ['second-step', '/login/second', pending],
      ['totp-setup', setupUrl, grace],
      ['recovery-codes', codesUrl, grace],
    ],
    captured,
  };
}

/** Screens that answer 403 by design (a proof is asked): Lighthouse measures them all the same. */
export const REFUSING = new Set(['prove']);
