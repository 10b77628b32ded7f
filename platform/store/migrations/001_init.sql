-- Accounts: provisional until claimed (email and password_hash set together).
CREATE TABLE accounts (
  id text PRIMARY KEY,
  email text,
  password_hash text,
  locale text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz,
  created_by text NOT NULL DEFAULT '',
  CHECK ((email IS NULL) = (password_hash IS NULL))
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

-- Pages: the profile and blocks are documents; everything queried on is a column.
CREATE TABLE pages (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  username text NOT NULL,
  by_program boolean NOT NULL,
  is_published boolean NOT NULL,
  banned_at timestamptz,
  ban_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT '',
  profile jsonb NOT NULL,
  blocks jsonb NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX pages_username_key ON pages (username);
CREATE INDEX pages_account_idx ON pages (account_id, created_at);

-- A deleted page's name stays taken for everyone but its former owner.
CREATE TABLE parked_names (
  username text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  parked_at timestamptz NOT NULL DEFAULT now()
);

-- API keys: only the SHA-256 of the key is kept.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  hash text NOT NULL,
  hint text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT '',
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

-- Claim links: only the SHA-256 of the token is kept.
CREATE TABLE claim_tokens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE UNIQUE INDEX claim_tokens_hash_key ON claim_tokens (token_hash);
CREATE INDEX claim_tokens_account_idx ON claim_tokens (account_id);

-- Answers to requests sent with an Idempotency-Key, replayed for 24 hours.
-- The body is encrypted with the server secret: it may hold a new API key.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
