-- The fair waitlist (issue 26): parents waiting for a slot in a full week, and the offers of freed slots made to them
-- one at a time (server/src/waitlist/README.md).
CREATE TABLE waitlist_entries (
  id serial PRIMARY KEY,
  school text NOT NULL,
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  child_name text,
  child_year text,
  locale text NOT NULL CHECK (locale IN ('en', 'ms', 'zh')),
  from_date date NOT NULL,
  to_date date NOT NULL,
  -- 'morning': the slot starts before 12:00 GMT+8.
  part_of_day text NOT NULL CHECK (part_of_day IN ('any', 'morning', 'afternoon')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  -- The order of the list (first come, first served); a staff move swaps it with the neighbour's.
  position bigserial NOT NULL,
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'offered', 'booked', 'expired', 'left', 'removed')),
  -- SHA-256 of the entry link's token (the token itself is only in the parent's mail).
  token_hash text NOT NULL UNIQUE,
  consent_id integer NOT NULL REFERENCES consents (id),
  ended_at timestamptz,
  CHECK (to_date >= from_date)
);
-- One live entry per email and per phone (both stored normalised: lower-case email, the phone's digits) per school.
CREATE UNIQUE INDEX waitlist_entries_live_email_uq ON waitlist_entries (school, email) WHERE state IN ('waiting', 'offered');
CREATE UNIQUE INDEX waitlist_entries_live_phone_uq ON waitlist_entries (school, phone) WHERE state IN ('waiting', 'offered');
CREATE INDEX waitlist_entries_waiting_idx ON waitlist_entries (position) WHERE state = 'waiting';

CREATE TABLE waitlist_offers (
  id serial PRIMARY KEY,
  entry_id integer NOT NULL REFERENCES waitlist_entries (id),
  slot_id integer NOT NULL REFERENCES slots (id),
  -- SHA-256 of the offer link's token.
  token_hash text NOT NULL UNIQUE,
  -- The slot's hold token while the offer runs (slots.hold_token_hash is its SHA-256): handed to the parent on accept,
  -- as a reserve hands it out; payments keep theirs the same way.
  hold_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Later than created_at when the offer was made in quiet hours.
  starts_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  mail_queued_at timestamptz,
  outcome text CHECK (outcome IN ('booked', 'expired', 'declined', 'cancelled')),
  ended_at timestamptz,
  CHECK (expires_at > starts_at)
);
-- At most one live offer per entry and per slot.
CREATE UNIQUE INDEX waitlist_offers_live_entry_uq ON waitlist_offers (entry_id) WHERE outcome IS NULL;
CREATE UNIQUE INDEX waitlist_offers_live_slot_uq ON waitlist_offers (slot_id) WHERE outcome IS NULL;
CREATE INDEX waitlist_offers_entry_idx ON waitlist_offers (entry_id);

ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check
  CHECK (kind IN ('visitor_confirmation', 'admin_notification', 'visitor_refund', 'admin_refund',
                  'visitor_rescheduled', 'admin_rescheduled', 'visitor_cancelled', 'admin_cancelled', 'visitor_reminder',
                  'staff_password_reset', 'waitlist_joined', 'waitlist_offer'));

ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'login', 'login_failed', 'logout', 'logout_all', 'slot_created', 'slot_deleted', 'booking_direct',
  'booking_cancelled_by_staff', 'booking_moved_by_staff', 'refund', 'account_added', 'account_disabled',
  'password_reset_requested', 'password_reset', 'parent_rescheduled', 'parent_cancelled',
  'privacy_person_viewed', 'privacy_person_exported', 'retention_applied',
  'privacy_request_logged', 'privacy_request_extended', 'privacy_request_answered',
  'waitlist_moved', 'waitlist_removed'));
