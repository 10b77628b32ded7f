-- Outbox of pages whose published files must be brought in line with the database. A row is
-- written in the same transaction as the change and removed once storage has the result, so
-- no publish is lost to a crash or a storage failure. Keyed by name: publishing a name
-- converges it to whatever the database holds (render it, or delete its files).
CREATE TABLE publish_queue (
  username text PRIMARY KEY,
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  generation integer NOT NULL DEFAULT 1
);
CREATE INDEX publish_queue_next_idx ON publish_queue (next_attempt_at);

ALTER TABLE pages ADD COLUMN first_viewed_at timestamptz;
ALTER TABLE pages ADD COLUMN published_template_version text;

-- Daily counters per page, summed in memory by the router and flushed in one upsert per (page, day).
CREATE TABLE page_stats_daily (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  day date NOT NULL,
  views integer NOT NULL DEFAULT 0,
  uniques integer NOT NULL DEFAULT 0,
  taps integer NOT NULL DEFAULT 0,
  PRIMARY KEY (page_id, day)
);

CREATE TABLE block_taps_daily (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  day date NOT NULL,
  block_id text NOT NULL,
  taps integer NOT NULL DEFAULT 0,
  PRIMARY KEY (page_id, day, block_id)
);

-- Salted hashes of address + user agent + day, to count each visitor once a day; no raw address.
CREATE TABLE page_visitors (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  day date NOT NULL,
  visitor text NOT NULL,
  PRIMARY KEY (page_id, day, visitor)
);
CREATE INDEX page_visitors_day_idx ON page_visitors (day);
