-- The blocks are only ever stored and loaded whole (nothing queries inside them), so they are
-- kept as json text: reading 100 pages' blocks as JSONB cost ~6 ms of conversion to text, as
-- json ~1.5 ms, which is most of what a republish batch holds the embedded database for.
ALTER TABLE pages ALTER COLUMN blocks TYPE json USING blocks::json;
ALTER TABLE pages ALTER COLUMN blocks SET DEFAULT '[]';
