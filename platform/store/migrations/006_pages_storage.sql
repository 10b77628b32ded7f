-- How page rows are stored, for the two writes that are frequent: edits and republishing.
-- Room left in each table page (70% full) lets an update that changes no indexed column write
-- the new row version beside the old one without touching the four indexes (a HOT update):
-- marking 100 republished pages went from ~2.7 to ~1.3 ms on the embedded database.
ALTER TABLE pages SET (fillfactor = 70);
-- The blocks are only ever stored and loaded whole (nothing queries inside them), so they are
-- kept as json text: reading 100 pages' blocks as JSONB cost ~6 ms of conversion to text, as
-- json ~1.5 ms, which is most of what a republish batch holds the embedded database for.
-- Changing the type rewrites the table, which also leaves the room above in existing pages.
ALTER TABLE pages ALTER COLUMN blocks TYPE json USING blocks::json;
ALTER TABLE pages ALTER COLUMN blocks SET DEFAULT '[]';
