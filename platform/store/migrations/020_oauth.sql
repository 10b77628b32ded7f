-- What the OAuth authorization server (oidc-provider, platform/edge/oauth/) keeps: registered clients,
-- grants, authorization codes, access and refresh tokens, its sessions and interactions. One
-- table, one row per record: `kind` is the library's model name, `id_hash` the SHA-256 of the
-- record's id (for a token, the token itself), so a token is never stored in clear; `payload`
-- is the library's record without its id. `grant_id` lets a revoked grant take its tokens with
-- it at once; `account_id` lists an account's connected apps and goes with the account.
CREATE TABLE oauth_records (
  kind text NOT NULL,
  id_hash text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  account_id text REFERENCES accounts (id) ON DELETE CASCADE,
  uid text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id_hash)
);
CREATE INDEX oauth_records_grant_idx ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_account_idx ON oauth_records (account_id, kind) WHERE account_id IS NOT NULL;
CREATE INDEX oauth_records_uid_idx ON oauth_records (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_expires_idx ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;
