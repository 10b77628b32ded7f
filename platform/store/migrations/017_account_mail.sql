-- When the account's e-mail was confirmed (through the link of a confirmation message).
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;

-- Links sent by e-mail: password resets and e-mail confirmations. Only the SHA-256 of the
-- token is kept; a link works once (used_at), until expires_at. `email` is the address the
-- link was sent to: a confirmation counts only while the account still has that address.
CREATE TABLE mail_tokens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('reset', 'verify')),
  token_hash text NOT NULL UNIQUE,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX mail_tokens_account_idx ON mail_tokens (account_id);
CREATE INDEX mail_tokens_expires_idx ON mail_tokens (expires_at);

-- A deleted account's page names stay parked for everyone (account_id NULL): they no longer
-- go with the account. Housekeeping, which frees a forgotten account's names, deletes its
-- parked names itself.
ALTER TABLE parked_names DROP CONSTRAINT parked_names_account_id_fkey;
ALTER TABLE parked_names ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE parked_names
  ADD CONSTRAINT parked_names_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE SET NULL;

-- When a session was last used (written at most once an hour per session), for the export.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;
