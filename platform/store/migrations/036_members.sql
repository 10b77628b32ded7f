-- People as members of another person's account (core/commands/members.ts): each holds a role
-- (core/rules/roles.ts) and, below owner, optionally some of the account's pages (NULL: all).
-- The account's own person is its owner and has no row here.
CREATE TABLE members (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  person_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'editor', 'contributor', 'viewer')),
  page_ids text[],
  added_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, person_id)
);
CREATE INDEX members_person_idx ON members (person_id);

-- Invitations by e-mail: only the SHA-256 of the link's token is kept; a link works once, for
-- 7 days. Housekeeping deletes them 30 days after they expire or were used.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('owner', 'editor', 'contributor', 'viewer')),
  page_ids text[],
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text
);
CREATE INDEX invitations_account_idx ON invitations (account_id);

-- The account a session works in when its person switched to one they are a member of (NULL:
-- their own). What it may do there is read from members on every request, so a removed member
-- stops at once.
ALTER TABLE sessions ADD COLUMN acting_account_id text REFERENCES accounts (id) ON DELETE SET NULL;

-- The member who made a key on an account (NULL: the account's own person): their keys are
-- revoked when they are removed or no longer an owner.
ALTER TABLE api_keys ADD COLUMN made_by text;
