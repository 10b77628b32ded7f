-- An account may be made with a passkey instead of a password: an e-mail without a password is
-- a real (claimed) account; a password without an e-mail is still never one. Provisional
-- accounts keep neither.
ALTER TABLE accounts DROP CONSTRAINT accounts_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_password_needs_email CHECK (email IS NOT NULL OR password_hash IS NULL);

-- A sign-up (or a claim) with a passkey keeps its challenge like the others, bound to the
-- attempt: the e-mail given and the id of the account it makes (or claims), its WebAuthn user
-- handle.
ALTER TABLE webauthn_challenges DROP CONSTRAINT webauthn_challenges_purpose_check;
ALTER TABLE webauthn_challenges ADD CONSTRAINT webauthn_challenges_purpose_check
  CHECK (purpose IN ('register', 'login', 'signup', 'claim'));
ALTER TABLE webauthn_challenges ADD COLUMN signup_email text;
ALTER TABLE webauthn_challenges ADD COLUMN signup_account_id text;
