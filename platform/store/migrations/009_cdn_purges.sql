-- CDN purges waiting to be sent (or sent again): a page removed by housekeeping, and the
-- template keys of a republish run. A page's own purge after a publish rides on the publish
-- outbox instead: its row is cleared only once the CDN has taken the purge.
CREATE TABLE cdn_purges (
  key text PRIMARY KEY,
  enqueued_at timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX cdn_purges_due ON cdn_purges (next_attempt_at);
