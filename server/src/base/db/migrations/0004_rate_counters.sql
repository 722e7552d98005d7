-- Fixed-window counters kept in the database, so every API replica counts the same attempts (login, holds, guessing).
CREATE TABLE rate_counters (
  key          text PRIMARY KEY,
  window_start timestamptz NOT NULL DEFAULT now(),
  hits         integer NOT NULL DEFAULT 0
);
CREATE INDEX rate_counters_window_idx ON rate_counters (window_start);

-- Secrets every replica must share (the sandbox gateway's signing key, challenge keys): created once, read by all.
CREATE TABLE app_secrets (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
