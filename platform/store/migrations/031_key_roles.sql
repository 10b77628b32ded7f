-- What a key may do (core/rules/roles.ts): its role, and the pages it reaches (NULL: every page
-- of the account). The keys made before roles were the owner's, and stay so.
ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'editor', 'contributor', 'viewer'));
ALTER TABLE api_keys ADD COLUMN page_ids text[];
