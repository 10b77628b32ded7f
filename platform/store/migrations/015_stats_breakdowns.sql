-- Where views come from and who reads the Markdown, as daily rollups per page (no raw events):
-- one row per (page, day, dimension, value) with its count, summed in memory by the router and
-- flushed once a second. Dimensions: referrer, country, device, browser, os, campaign (views) and
-- reader (Markdown reads). No address, cookie or user agent is stored.
CREATE TABLE page_breakdowns_daily (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  day date NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (page_id, day, dimension, value)
);

-- Markdown answers per day, by anyone (agents, programs, people); not counted in views.
ALTER TABLE page_stats_daily ADD COLUMN markdown_reads integer NOT NULL DEFAULT 0;

-- The same counts summed per calendar month (of UTC days), written in the same flush: a year's
-- statistics read whole months here and only the days at either end from the daily table.
CREATE TABLE page_breakdowns_monthly (
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  month date NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (page_id, month, dimension, value)
);
