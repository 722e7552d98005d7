-- Staff accounts, their sessions and the slots (with holds and bookings).
CREATE TABLE users (
  id            serial PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  username      text,
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a session token is stored; idle and absolute expiry are checked in SQL.
CREATE TABLE sessions (
  id           serial PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash   text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);

CREATE TABLE slots (
  id                 serial PRIMARY KEY,
  start_at           timestamptz NOT NULL,
  end_at             timestamptz NOT NULL,
  status             text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'booked')),
  visitor_name       text,
  visitor_email      text,
  visitor_contact_no text,
  selected_school    text,
  booking_reference  text UNIQUE,
  amount_sen         integer CHECK (amount_sen IS NULL OR amount_sen >= 0),
  booked_at          timestamptz,
  hold_token_hash    text,
  hold_expires_at    timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  CHECK (end_at > start_at),
  CHECK (status <> 'booked' OR visitor_name IS NOT NULL)
);

-- Two live slots can never share a start; a deleted slot frees its start.
CREATE UNIQUE INDEX slots_live_start_uq ON slots (start_at) WHERE deleted_at IS NULL;
-- Serves the public list: live, available slots ordered by start.
CREATE INDEX slots_public_list_idx ON slots (start_at, id) WHERE deleted_at IS NULL AND status = 'available';
