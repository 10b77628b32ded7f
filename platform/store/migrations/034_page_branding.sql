-- A page setting with a default: `branding` ("Made with linkpage" at the page's foot and the mark
-- on its share card, where the operator lets the owner choose). Stored profiles, their past
-- versions and the pages of pending proposals get it, so every reader finds it.
UPDATE pages SET profile = profile || jsonb_build_object('branding', COALESCE(profile -> 'branding', 'true'::jsonb));
UPDATE page_versions SET profile = profile || jsonb_build_object('branding', COALESCE(profile -> 'branding', 'true'::jsonb));
UPDATE proposals SET profile = profile || jsonb_build_object('branding', COALESCE(profile -> 'branding', 'true'::jsonb));
