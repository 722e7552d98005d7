-- After paying: manage links, reschedule, cancel with refund, history and reminders (issue 13).

-- A paid booking's own state, beside the payment's: 'booked' once the payment completes, 'cancelled' when the parent
-- or staff cancel it (the slot is freed; a refund, if any, follows the payment's refund_pending → refunded path).
ALTER TABLE payments
  ADD COLUMN booking_status      text CHECK (booking_status IN ('booked', 'cancelled')),
  ADD COLUMN cancelled_at        timestamptz,
  -- 'parent', or the staff member's email.
  ADD COLUMN cancelled_by        text,
  -- What a cancellation gives back (policy or staff); NULL: the paid amount (paid-but-not-booked refunds).
  ADD COLUMN refund_amount_sen   integer CHECK (refund_amount_sen IS NULL OR refund_amount_sen >= 0),
  -- The gateway accepted the refund but has not finished it (CHIP's pending_refund): never asked to refund again.
  ADD COLUMN refund_requested_at timestamptz,
  -- The calendar invitation's SEQUENCE: 0 when booked, +1 at each reschedule and at the cancel.
  ADD COLUMN calendar_sequence   integer NOT NULL DEFAULT 0;
UPDATE payments SET booking_status = 'booked' WHERE status = 'completed';
CREATE INDEX payments_booked_slot_idx ON payments (slot_id) WHERE booking_status = 'booked';

-- Manage links: each is 32 random bytes, stored as its SHA-256 only; several may point at one booking (one per mail
-- and per paying browser), all valid until the visit is over.
CREATE TABLE manage_tokens (
  token_hash text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES payments(id),
  purpose    text NOT NULL CHECK (purpose IN ('mail', 'browser')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX manage_tokens_payment_idx ON manage_tokens (payment_id);

-- A booking's history, for staff: appended only.
CREATE TABLE booking_events (
  id         serial PRIMARY KEY,
  payment_id text NOT NULL REFERENCES payments(id),
  kind       text NOT NULL CHECK (kind IN ('booked', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed')),
  actor      text NOT NULL,
  from_start timestamptz,
  to_start   timestamptz,
  amount_sen integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_events_payment_idx ON booking_events (payment_id, id);

-- A reminder is claimed by inserting its row (one per booking and visit start) in the transaction that queues its
-- mail: exactly once across replicas, and a moved booking's new start gets its own.
CREATE TABLE booking_reminders (
  payment_id  text NOT NULL REFERENCES payments(id),
  visit_start timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (payment_id, visit_start)
);

-- Several messages of a kind per booking now (each reschedule); the Message-ID is what makes one message unique.
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_payment_id_kind_key;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_message_id_key UNIQUE (message_id);
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check
  CHECK (kind IN ('visitor_confirmation', 'admin_notification', 'visitor_refund', 'admin_refund',
                  'visitor_rescheduled', 'admin_rescheduled', 'visitor_cancelled', 'admin_cancelled', 'visitor_reminder'));
