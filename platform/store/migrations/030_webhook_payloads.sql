-- The body an endpoint is sent (core/events.ts): 'standard' is Standard Webhooks' {type,
-- timestamp, data}; 'legacy' the {id, type, time, object} of before, kept for the endpoints
-- registered before this migration until their owners switch (PATCH {"payload": "standard"}).
ALTER TABLE webhooks ADD COLUMN payload text NOT NULL DEFAULT 'standard' CHECK (payload IN ('standard', 'legacy'));
UPDATE webhooks SET payload = 'legacy';
