-- Who made each version, as an id that stays when a key is relabelled: `key:<id>`, `app:<grant
-- id>` or `person:<account id>` (core/caller.ts). Undoing what one of them did picks its versions
-- by it. Versions made before have none.
ALTER TABLE page_versions ADD COLUMN author text;
CREATE INDEX page_versions_author ON page_versions (author, created_at) WHERE author IS NOT NULL;
