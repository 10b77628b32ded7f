-- The IANA time zone an owner reads statistics in (account settings); UTC until chosen.
ALTER TABLE accounts ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';
