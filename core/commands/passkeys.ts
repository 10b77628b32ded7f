/**
 * Passkeys (WebAuthn) for people, with SimpleWebAuthn: registering one on the account screen
 * and signing in with one alone (a discoverable credential: no e-mail typed). The relying party
 * is the service's own public address (BASE_URL): its host name is the RP ID, its origin the only
 * origin accepted. Challenges are kept by the server, used once, for five minutes.
 */
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { accountsRepo } from '../../store/accounts.js';
import { type ChallengePurpose, type Passkey, passkeysRepo } from '../../store/passkeys.js';
import { AppError } from '../errors.js';
import { newId } from '../secrets.js';
import type { Services } from '../services.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
export const PASSKEY_NAME_MAX = 60;
/** Enough for every device a person owns; a limit so that no account grows without end. */
export const PASSKEYS_MAX = 20;

const SERVICE_NAME = 'linkpage';

/** The relying party: the host of BASE_URL and its origin. */
function relyingParty(s: Services): { rpID: string; origin: string } {
  const url = new URL(s.config.baseUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const failed = (hint: string) => new AppError('bad_credentials', { hint });

async function keepChallenge(s: Services, purpose: ChallengePurpose, accountId: string | null, challenge: string) {
  const id = newId();
  await passkeysRepo(s.db).saveChallenge({
    id,
    purpose,
    accountId,
    challenge,
    expiresAt: new Date(s.now().getTime() + CHALLENGE_TTL_MS),
  });
  return id;
}

async function takeChallenge(s: Services, id: unknown, purpose: ChallengePurpose) {
  const taken = typeof id === 'string' ? await passkeysRepo(s.db).takeChallenge(id, purpose, s.now()) : undefined;
  if (!taken) throw failed('That passkey request has expired. Try again.');
  return taken;
}

/** What the browser needs to create a passkey for the account (its existing ones excluded). */
export async function registrationOptions(
  s: Services,
  accountId: string,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account) throw new AppError('unauthorized');
  const existing = await passkeysRepo(s.db).listByAccount(accountId);
  if (existing.length >= PASSKEYS_MAX) {
    throw new AppError('invalid_fields', { hint: `An account holds at most ${PASSKEYS_MAX} passkeys.` });
  }
  const options = await generateRegistrationOptions({
    rpName: SERVICE_NAME,
    rpID: relyingParty(s).rpID,
    userID: new TextEncoder().encode(accountId),
    userName: account.email ?? accountId,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: p.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { challengeId: await keepChallenge(s, 'register', accountId, options.challenge), options };
}

/** Verifies the browser's new credential against the kept challenge and stores it under its name. */
export async function addPasskey(
  s: Services,
  accountId: string,
  input: { challengeId: unknown; response: unknown; name: string },
): Promise<Passkey> {
  const name = input.name.trim();
  if (name === '' || name.length > PASSKEY_NAME_MAX) {
    throw new AppError('invalid_fields', {
      field: 'name',
      detail: 'name',
      hint: `Give the passkey a name of 1 to ${PASSKEY_NAME_MAX} characters.`,
    });
  }
  const kept = await takeChallenge(s, input.challengeId, 'register');
  if (kept.accountId !== accountId) throw failed('That passkey request was for another account. Try again.');
  const { rpID, origin } = relyingParty(s);
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: kept.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    throw failed('The browser’s answer could not be checked. Try again.');
  }
  if (!result.verified) throw failed('The passkey could not be verified. Try again.');
  const { credential } = result.registrationInfo;
  if (await passkeysRepo(s.db).findByCredentialId(credential.id)) throw failed('This passkey is already registered.');
  const passkey = {
    id: newId(),
    accountId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
    createdAt: s.now(),
  };
  await passkeysRepo(s.db).insert(passkey);
  return { ...passkey, lastUsedAt: null };
}

/**
 * What the browser needs to sign in with a passkey: any of this service's (no account named),
 * or, for the second step after a password, one of that account's.
 */
export async function signInOptions(
  s: Services,
  accountId: string | null = null,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const allowCredentials =
    accountId === null
      ? undefined
      : (await passkeysRepo(s.db).listByAccount(accountId)).map((p) => ({
          id: p.credentialId,
          transports: p.transports as AuthenticatorTransport[],
        }));
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(s).rpID,
    userVerification: 'required',
    allowCredentials,
  });
  return { challengeId: await keepChallenge(s, 'login', accountId, options.challenge), options };
}

/** Verifies a passkey's signature over a kept challenge; answers the account it belongs to. */
export async function verifyPasskey(
  s: Services,
  input: { challengeId: unknown; response: unknown; accountId?: string },
): Promise<string> {
  const kept = await takeChallenge(s, input.challengeId, 'login');
  // A challenge made for one step is not good for the other (sign-in alone, or a second step).
  if (kept.accountId !== (input.accountId ?? null)) throw failed('That passkey request has expired. Try again.');
  const response = input.response as AuthenticationResponseJSON | null;
  const passkey = typeof response?.id === 'string' ? await passkeysRepo(s.db).findByCredentialId(response.id) : null;
  if (!passkey) throw failed('This passkey is not known here: it may have been removed from the account.');
  // A challenge for the second step is answered by a passkey of that account only.
  if (kept.accountId !== null && kept.accountId !== passkey.accountId) throw failed('Use a passkey of this account.');
  const { rpID, origin } = relyingParty(s);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: kept.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
    });
  } catch {
    throw failed('The passkey’s answer could not be checked. Try again.');
  }
  if (!result.verified) throw failed('The passkey could not be verified. Try again.');
  await passkeysRepo(s.db).used(passkey.id, result.authenticationInfo.newCounter, s.now());
  return passkey.accountId;
}

/** The account's passkeys, as the account screen lists them. */
export async function listPasskeys(s: Services, accountId: string) {
  return (await passkeysRepo(s.db).listByAccount(accountId)).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
  }));
}

export async function removePasskey(s: Services, accountId: string, id: string): Promise<void> {
  if (!(await passkeysRepo(s.db).remove(accountId, id))) throw new AppError('not_found');
}
