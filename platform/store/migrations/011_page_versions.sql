-- Every page has a version that each change raises: agents send it back in If-Match (or as
-- expectedVersion) so that two writers never overwrite each other without knowing.
ALTER TABLE pages ADD COLUMN version integer NOT NULL DEFAULT 1;
