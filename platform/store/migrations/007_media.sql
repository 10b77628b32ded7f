-- Every image the service stores (core/commands/images.ts), so that images no page uses any
-- more can be found and removed without listing the bucket. A row is written before its file;
-- `removed_at` marks an image taken away (its file deleted): a later change that names the key
-- is refused rather than showing a missing image. Old marks are cleared by housekeeping.
-- No foreign key to accounts: a keyless create stores its avatarUrl image before the account
-- row exists (and may then fail); rows of accounts that are gone are swept like unused ones.
CREATE TABLE media (
  key text PRIMARY KEY,
  account_id text NOT NULL,
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
CREATE INDEX media_live_idx ON media (created_at) WHERE removed_at IS NULL;
CREATE INDEX media_removed_idx ON media (removed_at) WHERE removed_at IS NOT NULL;
CREATE INDEX media_account_idx ON media (account_id);
