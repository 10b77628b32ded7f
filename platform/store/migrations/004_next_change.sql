-- When a block of the page next appears or disappears (showFrom / showUntil), so the page is
-- published again at that moment; null when nothing is scheduled.
ALTER TABLE pages ADD COLUMN next_change_at timestamptz;
CREATE INDEX pages_next_change_idx ON pages (next_change_at) WHERE next_change_at IS NOT NULL;
