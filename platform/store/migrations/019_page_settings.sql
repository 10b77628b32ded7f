-- Two page settings with defaults: `adult` (the whole page behind an age notice) and
-- `theme.scheme` ('fixed' colours, or 'auto' to follow the visitor's light or dark setting).
-- Stored profiles and their past versions get the defaults, so every reader finds both.
UPDATE pages SET profile = jsonb_set(
  profile || jsonb_build_object('adult', COALESCE(profile -> 'adult', 'false'::jsonb)),
  '{theme,scheme}', COALESCE(profile #> '{theme,scheme}', '"fixed"'::jsonb));
UPDATE page_versions SET profile = jsonb_set(
  profile || jsonb_build_object('adult', COALESCE(profile -> 'adult', 'false'::jsonb)),
  '{theme,scheme}', COALESCE(profile #> '{theme,scheme}', '"fixed"'::jsonb));
