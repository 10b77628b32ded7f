-- A person's passkeys (WebAuthn credentials): the credential's id and public key as the
-- authenticator gave them (base64url), its signature counter, and the name the person chose.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_account_idx ON passkeys (account_id);

-- WebAuthn challenges, kept by the server: each is used once (deleted as it is read) and only
-- until expires_at. `account_id` is the account a registration is for (NULL for a sign-in).
CREATE TABLE webauthn_challenges (
  id text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  account_id text REFERENCES accounts (id) ON DELETE CASCADE,
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
