-- The hold time each client network, email and phone has had on each slot (server/src/limits/hold-time.ts): a slot's
-- total hold time per network, per email and per phone is capped within a window, whatever the renewals. One row per
-- grant of time (a new hold, or a payment start or renewal that set its end); a release ends the hold's running grant.
-- Keyed hashes only (as slots.hold_client); rows older than the window are swept as new grants are written.
CREATE TABLE hold_grants (
  id          bigserial PRIMARY KEY,
  slot_id     integer NOT NULL REFERENCES slots (id) ON DELETE CASCADE,
  token_hash  text NOT NULL,
  client      text NOT NULL,
  email       text,
  phone       text,
  started_at  timestamptz NOT NULL DEFAULT now(),
  ends_at     timestamptz NOT NULL,
  CONSTRAINT hold_grants_end_after_start CHECK (ends_at >= started_at)
);
CREATE INDEX hold_grants_slot_idx ON hold_grants (slot_id, ends_at);
CREATE INDEX hold_grants_ends_idx ON hold_grants (ends_at);
