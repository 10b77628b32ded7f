-- The nightly link check: one row per distinct URL of a visible link block on a published page.
-- A URL that fails on two nights in a row is broken (broken_since) until it answers again.
CREATE TABLE link_checks (
  url text PRIMARY KEY,
  host text NOT NULL,
  -- The last night it was on a published page; rows no page names any more are forgotten.
  seen_at timestamptz NOT NULL,
  checked_at timestamptz,
  -- ok, failed, or unknown (the site refused a robot: 401, 403, 429, or a private address).
  outcome text,
  status integer,
  error text,
  failed_nights integer NOT NULL DEFAULT 0,
  broken_since timestamptz,
  -- When links.broken went out for this breakage: an event lost to a crash goes the next night.
  announced_at timestamptz
);
