-- Each version of a page as it was after a change: who made it, a short summary, and the
-- editable fields, for the history and for restoring. Kept 90 days or the last 100 versions.
CREATE TABLE page_versions (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  version integer NOT NULL,
  created_at timestamptz NOT NULL,
  changed_by text NOT NULL,
  user_agent text NOT NULL DEFAULT '',
  summary text NOT NULL,
  profile jsonb NOT NULL,
  blocks json NOT NULL,
  is_published boolean NOT NULL,
  PRIMARY KEY (page_id, version)
);
-- Pages that exist already start their history at their current version.
INSERT INTO page_versions (page_id, version, created_at, changed_by, user_agent, summary, profile, blocks, is_published)
SELECT id, version, updated_at, 'before history was kept', '', 'The page as it was when its history began.', profile, blocks, is_published
FROM pages;
