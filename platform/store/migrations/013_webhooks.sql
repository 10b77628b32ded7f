-- Webhooks: endpoints an account registers for events, and each event's delivery to each
-- endpoint. A delivery row is written in the same transaction as the change it tells of (an
-- outbox), so nothing is announced that did not happen and nothing that happened is lost.
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  description text NOT NULL DEFAULT '',
  -- The signing secret must be read back to sign, so it is sealed (AES-GCM under SECRET), not hashed.
  secret_sealed text NOT NULL,
  -- After a roll, the old secret signs too until this time.
  previous_secret_sealed text,
  previous_secret_until timestamptz,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL DEFAULT '',
  -- Since when every attempt has failed (null after a success); three days of it disable the
  -- endpoint. A failure long after the last one (more than the longest wait between retries)
  -- starts a new streak.
  failing_since timestamptz,
  last_failed_at timestamptz,
  disabled_at timestamptz,
  disabled_reason text
);
CREATE INDEX webhooks_account ON webhooks (account_id);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- The exact bytes sent (and signed) on every attempt.
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  -- pending, delivered or failed (given up after three days, or the endpoint was disabled).
  state text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  -- A sender's claim: no other process sends the delivery before locked_until, and what the
  -- sender records counts only while the claim is still its own.
  locked_until timestamptz,
  claim text,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (webhook_id, created_at DESC);
