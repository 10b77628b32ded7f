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

-- Authenticator-app codes (TOTP, RFC 6238). The secret is sealed with the server's secret
-- (AES-256-GCM), so a dump of the database alone does not give it; `pending_sealed` is a secret
-- shown for setup and not yet confirmed with a code. `last_step` is the 30-second step of the
-- last code accepted: a code is never accepted twice.
CREATE TABLE totp_secrets (
  account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  secret_sealed text,
  pending_sealed text,
  last_step bigint,
  enabled_at timestamptz
);

-- One-time recovery codes: SHA-256 only, each used once (used_at).
CREATE TABLE recovery_codes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz
);
CREATE INDEX recovery_codes_account_idx ON recovery_codes (account_id);

-- The half-session between a right password and the second step: the SHA-256 of its cookie's
-- token, for ten minutes, used once. It is no session: it opens nothing but the second step.
CREATE TABLE pending_logins (
  token_hash text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX pending_logins_expires_idx ON pending_logins (expires_at);
