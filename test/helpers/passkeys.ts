/**
 * Passkeys in the browser tests: the app at http://localhost:<port> (WebAuthn needs a host name
 * for its relying party, not an IP address), a virtual authenticator through the DevTools
 * protocol's WebAuthn domain, and the account screen's form.
 */
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { startApp } from './app.js';
import { app } from './hooks.js';

/** The app at http://localhost:<port>, its configured public address the same. */
export async function startLocalhostApp(options: Parameters<typeof startApp>[0] = {}) {
  const started = await startApp(options);
  const url = `http://localhost:${started.port}`;
  started.services.config.baseUrl = url;
  return { ...started, url };
}

/** A virtual platform authenticator that keeps discoverable credentials and verifies its user. */
export async function addAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

/** The page's browser, from its next address on, offers no passkeys in form fields (no conditional UI). */
export async function withoutAutofill(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: undefined });
  });
}

/** Adds a passkey under `name` on the account screen. */
export async function addPasskey(page: Page, name: string): Promise<void> {
  await page.goto(`${app().url}/dashboard/account`);
  await page.getByLabel(/Name of the new passkey/).fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.waitForURL(/notice=passkey-added/);
}

/** Turns the authenticator app on from the account screen, at the app clock's `at`; answers its secret and recovery codes. */
export async function turnOnTotp(page: Page, at: number): Promise<{ secret: string; codes: string[] }> {
  await page.goto(`${app().url}/dashboard/account`);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel(/6-digit code/).fill(codeAt(secret, at));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = await page.locator('.codes code').allTextContents();
  return { secret, codes };
}

/** The authenticator app's code for the secret at a time. */
export function codeAt(secret: string, at: number): string {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });
}
