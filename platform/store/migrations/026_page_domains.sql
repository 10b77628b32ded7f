-- Custom domains: at most one a page. `state`: pending (attached, control not yet shown),
-- active (its _linkpage TXT record was found), failing (active before, the record is gone;
-- it serves until failing_since plus the grace period). A domain is held (active or failing)
-- by one page at a time; pending attachments of other accounts may wait beside the holder and
-- take the domain over when their own record is found. `account_id` is the account the TXT
-- value was made for. Checks are queued by `next_check_at` (NULL: none due), claimed by `claim`.
CREATE TABLE page_domains (
  page_id text PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  domain text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'active', 'failing')),
  attached_at timestamptz NOT NULL,
  checks_since timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_check_at timestamptz,
  claim text,
  checked_at timestamptz,
  found json,
  problem text,
  verified_at timestamptz,
  failing_since timestamptz
);
CREATE UNIQUE INDEX page_domains_held_idx ON page_domains (domain) WHERE state <> 'pending';
CREATE UNIQUE INDEX page_domains_account_idx ON page_domains (account_id, domain);
CREATE INDEX page_domains_due_idx ON page_domains (next_check_at) WHERE next_check_at IS NOT NULL;
