/**
 * A new account made with a passkey instead of a password, and a provisional account claimed
 * with one. The first step takes the e-mail (refused at once when an account has it) and answers
 * a registration challenge bound to this attempt: the e-mail and the id of the account (the new
 * one's, or the claimed one's; the passkey's user handle) are kept with the challenge on the
 * server, so the second step makes or claims exactly that account, with the passkey it verified
 * and no password. The e-mail is confirmed by its link as after any sign-up or claim.
 */
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import * as v from 'valibot';
import { accountsRepo } from '../../platform/store/accounts.js';
import { sqlState, UNIQUE_VIOLATION } from '../../platform/store/db.js';
import { passkeysRepo, type SignupAttempt } from '../../platform/store/passkeys.js';
import { AppError } from '../errors.js';
import { Email } from '../schemas/fields.js';
import { newId } from '../secrets.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import { sendVerification } from './emailVerification.js';
import {
  failed,
  keepChallenge,
  newCredential,
  relyingParty,
  SERVICE_NAME,
  takeChallenge,
  webAuthn,
} from './passkeys.js';
import { completeClaim, usableClaim } from './people.js';

/** What the passkey made at sign-up (or claim) is called on the account screen. */
export const SIGNUP_PASSKEY_NAME = 'Passkey from sign-up';

const SignUpEmail = v.strictObject({ email: Email });

/** The registration challenge for a new account with this e-mail. */
export async function passkeySignUpOptions(
  s: Services,
  input: { email: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { email } = parseOrThrow(SignUpEmail, { email: input.email.trim() });
  if (await accountsRepo(s.db).emailTaken(email)) throw new AppError('email_taken', { field: 'email' });
  return attemptOptions(s, 'signup', { email, accountId: newId() });
}

/** A registration challenge for the attempt, kept with it. */
async function attemptOptions(s: Services, purpose: 'signup' | 'claim', attempt: SignupAttempt) {
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName: SERVICE_NAME,
    rpID: relyingParty(s).rpID,
    userID: new TextEncoder().encode(attempt.accountId),
    userName: attempt.email,
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { challengeId: await keepChallenge(s, purpose, null, options.challenge, attempt), options };
}

/** The challenge's attempt, if the form's e-mail is the one it was made for (what the person sees is what is made). */
async function keptAttempt(s: Services, purpose: 'signup' | 'claim', challengeId: unknown, email: string) {
  const kept = await takeChallenge(s, challengeId, purpose);
  if (!kept.signup || kept.signup.email.toLowerCase() !== email.trim().toLowerCase()) {
    throw failed('That passkey request was for another e-mail. Try again.');
  }
  return { attempt: kept.signup, challenge: kept.challenge };
}

/** The registration challenge for claiming the provisional account of a claim link with this e-mail. */
export async function passkeyClaimOptions(
  s: Services,
  input: { token: string; email: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { accountId } = await usableClaim(s, input.token);
  const { email } = parseOrThrow(SignUpEmail, { email: input.email.trim() });
  if (await accountsRepo(s.db).emailTaken(email)) throw new AppError('email_taken', { field: 'email' });
  return attemptOptions(s, 'claim', { email, accountId });
}

/** Claims the link's account with its e-mail and the verified passkey, no password; answers its id. */
export async function passkeyClaim(
  s: Services,
  input: { token: string; challengeId: unknown; response: unknown; email: string },
): Promise<string> {
  const { tokenId, accountId } = await usableClaim(s, input.token);
  const { attempt, challenge } = await keptAttempt(s, 'claim', input.challengeId, input.email);
  if (attempt.accountId !== accountId) throw failed('That passkey request was for another claim link. Try again.');
  const credential = await newCredential(s, input.response, challenge);
  await completeClaim(s, {
    tokenId,
    accountId,
    email: attempt.email,
    passwordHash: null,
    alsoInTx: (tx) => passkeysRepo(tx).insert({ ...credential, accountId, name: SIGNUP_PASSKEY_NAME }),
  });
  return accountId;
}

/** Creates the account of the sign-up attempt with its verified passkey and no password; answers its id. */
export async function passkeySignUp(
  s: Services,
  input: { challengeId: unknown; response: unknown; email: string; locale: string; userAgent: string },
): Promise<string> {
  const { attempt, challenge } = await keptAttempt(s, 'signup', input.challengeId, input.email);
  const credential = await newCredential(s, input.response, challenge);
  try {
    await s.db.transaction(async (tx) => {
      if (await accountsRepo(tx).emailTaken(attempt.email)) throw new AppError('email_taken', { field: 'email' });
      await accountsRepo(tx).insert({
        id: attempt.accountId,
        email: attempt.email,
        passwordHash: null,
        locale: input.locale,
        createdBy: input.userAgent,
        now: s.now(),
      });
      await passkeysRepo(tx).insert({ ...credential, accountId: attempt.accountId, name: SIGNUP_PASSKEY_NAME });
    });
  } catch (err) {
    const { code, constraint } = sqlState(err);
    if (code === UNIQUE_VIOLATION && constraint === 'accounts_email_key') {
      throw new AppError('email_taken', { field: 'email' });
    }
    if (code === UNIQUE_VIOLATION) throw failed('This passkey is already registered.');
    throw err;
  }
  await sendVerification(s, attempt.accountId);
  return attempt.accountId;
}
