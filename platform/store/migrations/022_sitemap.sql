-- The sitemap lists live pages (published, not banned) by name, with when each last changed:
-- an index of exactly those rows, so its keyset reads (name > $1 ORDER BY name) are index-only.
CREATE INDEX pages_listed_idx ON pages (username) INCLUDE (updated_at) WHERE is_published AND banned_at IS NULL;
