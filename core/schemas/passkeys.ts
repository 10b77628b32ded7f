/** The shapes of the passkey forms: a new passkey's name. */
import * as v from 'valibot';
import { str } from './fields.js';

export const PASSKEY_NAME_MAX = 60;

const NAME_HINT = `Give the passkey a name of 1 to ${PASSKEY_NAME_MAX} characters.`;

/** What a person calls a passkey (the device it lives on), trimmed. */
export const PasskeyName = v.pipe(str(), v.trim(), v.minLength(1, NAME_HINT), v.maxLength(PASSKEY_NAME_MAX, NAME_HINT));

export const NewPasskey = v.object({ name: PasskeyName });
