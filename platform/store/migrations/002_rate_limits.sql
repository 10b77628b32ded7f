-- Fixed-window counters shared by every API process: one row per (bucket, window).
-- bucket = rule name + ':' + subject (a hashed address or an account id).
CREATE TABLE rate_limits (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
