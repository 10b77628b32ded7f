/**
 * Passkeys (WebAuthn) for people, with SimpleWebAuthn: registering one on the account screen
 * and signing in with one alone (a discoverable credential: no e-mail typed). The relying party
 * is the service's own public address (BASE_URL): its host name is the RP ID, its origin the only
 * origin accepted. Challenges are kept by the server, used once, for five minutes.
 */
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { accountsRepo } from '../../platform/store/accounts.js';
import {
  type ChallengePurpose,
  type Passkey,
  passkeysRepo,
  type SignupAttempt,
} from '../../platform/store/passkeys.js';
import { AppError } from '../errors.js';
import { NewPasskey } from '../schemas/passkeys.js';
import { newId } from '../secrets.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';

/**
 * SimpleWebAuthn, loaded when a passkey is first used: with its certificate parsers it holds
 * ~200 modules that a process whose users never touch a passkey need not keep in memory.
 */
export const webAuthn = () => import('@simplewebauthn/server');

const CHALLENGE_TTL_MS = 5 * 60_000;
/** Enough for every device a person owns; a limit so that no account grows without end. */
export const PASSKEYS_MAX = 20;

/** The name authenticators show for this service's passkeys. */
export const SERVICE_NAME = 'linkpage';

/** The relying party: the host of BASE_URL and its origin. */
export function relyingParty(s: Services): { rpID: string; origin: string } {
  const url = new URL(s.config.baseUrl);
  return { rpID: url.hostname, origin: url.origin };
}

export const failed = (hint: string) => new AppError('bad_credentials', { hint });

/** Keeps a challenge for five minutes; answers its id. */
export async function keepChallenge(
  s: Services,
  purpose: ChallengePurpose,
  accountId: string | null,
  challenge: string,
  signup?: SignupAttempt,
) {
  const id = newId();
  await passkeysRepo(s.db).saveChallenge({
    id,
    purpose,
    accountId,
    challenge,
    expiresAt: new Date(s.now().getTime() + CHALLENGE_TTL_MS),
    signup,
  });
  return id;
}

export async function takeChallenge(s: Services, id: unknown, purpose: ChallengePurpose) {
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
  const { generateRegistrationOptions } = await webAuthn();
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
  const { name } = parseOrThrow(NewPasskey, { name: input.name });
  const kept = await takeChallenge(s, input.challengeId, 'register');
  if (kept.accountId !== accountId) throw failed('That passkey request was for another account. Try again.');
  const passkey = { ...(await newCredential(s, input.response, kept.challenge)), accountId, name };
  await passkeysRepo(s.db).insert(passkey);
  return { ...passkey, lastUsedAt: null };
}

/** The browser's new credential, verified against the kept challenge (user verification required). */
export async function newCredential(s: Services, response: unknown, challenge: string) {
  const { rpID, origin } = relyingParty(s);
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await (await webAuthn()).verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
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
  return {
    id: newId(),
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    createdAt: s.now(),
  };
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
  const { generateAuthenticationOptions } = await webAuthn();
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
    result = await (await webAuthn()).verifyAuthenticationResponse({
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

/** Removes one of the account's passkeys; never the last one of an account without a password. */
export async function removePasskey(s: Services, accountId: string, id: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    // Locked: two removals at once cannot each leave the other as the last passkey.
    await accountsRepo(tx).lock(accountId);
    const account = await accountsRepo(tx).find(accountId);
    const passkeys = passkeysRepo(tx);
    const mine = await passkeys.listByAccount(accountId);
    if (!mine.some((p) => p.id === id)) throw new AppError('not_found');
    if (account?.passwordHash === null && mine.length === 1) {
      throw new AppError('invalid_fields', {
        field: 'passkey',
        detail: 'passkey',
        hint: 'This passkey is the only way into the account: set a password or add another passkey before removing it.',
      });
    }
    await passkeys.remove(accountId, id);
  });
}
