-- Changes proposed to a page (core/commands/proposals.ts): the change as sent (`input`, a PATCH's
-- fields or a PUT's page), the page as it would be (`profile`, `blocks`, `is_published`), the
-- version it was made on, who made it, and what became of it.
CREATE TABLE proposals (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  base_version integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('patch', 'replace')),
  input jsonb NOT NULL,
  profile jsonb NOT NULL,
  blocks jsonb NOT NULL,
  is_published boolean NOT NULL,
  summary text NOT NULL,
  author text,
  changed_by text NOT NULL,
  user_agent text NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined')),
  note text NOT NULL DEFAULT '',
  decided_at timestamptz,
  decided_by text,
  version integer
);
CREATE INDEX proposals_page ON proposals (page_id, created_at);
