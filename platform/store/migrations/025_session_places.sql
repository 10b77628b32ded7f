-- Where each session was started, for the account screen's list of sessions: the country of
-- the log-in's address (its ISO code, worked out offline), never the address itself.
ALTER TABLE sessions ADD COLUMN country text;
-- The account screen lists an account's live sessions.
CREATE INDEX sessions_account_live_idx ON sessions (account_id, expires_at) WHERE revoked_at IS NULL;
