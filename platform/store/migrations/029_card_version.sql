-- The drawing version (renderer/ogImage.ts OG_VERSION) of the share card a published page last
-- named as its own, stored; NULL until known (pages published before this column, and pages
-- whose card is not drawn yet). After an upgrade that changes the drawing, the start's job
-- (core/commands/redrawCards.ts) queues the pages whose value is another for a publish, which
-- draws their new card.
ALTER TABLE pages ADD COLUMN card_version text;
