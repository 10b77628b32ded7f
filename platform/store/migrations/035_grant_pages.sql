-- The pages an OAuth grant (a connected app) may touch: null for every page of the account, as
-- for an API key (031_key_roles.sql). Set on the consent screen; only grants' rows use it.
ALTER TABLE oauth_records ADD COLUMN page_ids text[];
