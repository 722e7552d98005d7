-- Issue 37: one checkout books several children (brothers and sisters) at one time: one payment, one reference, one
-- seat (a `slots` row) per child. The booked seats of one checkout share its reference, so a reference is no longer
-- unique among slots (payments.reference still is). A payment of one child has no rows here: the spec's booking.
ALTER TABLE slots DROP CONSTRAINT slots_booking_reference_key;
CREATE INDEX slots_booking_reference_idx ON slots (booking_reference) WHERE booking_reference IS NOT NULL;

CREATE TABLE payment_children (
  payment_id       text NOT NULL REFERENCES payments(id),
  -- The order the parent gave: the first child is the payment's own (its child_name, child_year, selected_school, slot_id).
  position         smallint NOT NULL CHECK (position BETWEEN 1 AND 4),
  -- The seat held for this child, then booked (it follows the booking when it moves).
  slot_id          integer NOT NULL REFERENCES slots(id),
  child_name       text NOT NULL,
  child_year       text NOT NULL,
  selected_school  text NOT NULL,
  -- The school's fee, the sibling discount off it, and what this child's share of the payment is (sen).
  fee_sen          integer NOT NULL CHECK (fee_sen >= 0),
  discount_sen     integer NOT NULL CHECK (discount_sen >= 0 AND discount_sen <= fee_sen),
  amount_sen       integer NOT NULL CHECK (amount_sen = fee_sen - discount_sen),
  -- Cancelled on its own while the others stay booked, and what is given back for this child (the `child-refund` queue).
  cancelled_at     timestamptz,
  cancelled_by     text,
  refund_sen       integer CHECK (refund_sen IS NULL OR (refund_sen > 0 AND refund_sen <= amount_sen)),
  refund_state     text CHECK (refund_state IN ('pending', 'requested', 'refunded')),
  refund_attempts  integer NOT NULL DEFAULT 0,
  refund_last_error text,
  gateway_refund_id text,
  PRIMARY KEY (payment_id, position),
  CHECK ((refund_sen IS NULL) = (refund_state IS NULL)),
  CHECK (refund_sen IS NULL OR cancelled_at IS NOT NULL)
);
CREATE INDEX payment_children_slot_idx ON payment_children (slot_id);

-- The sandbox gateway, like CHIP, takes partial refunds of a paid session (one child's share), never more than was paid.
ALTER TABLE sandbox_sessions ADD COLUMN refunded_sen integer NOT NULL DEFAULT 0 CHECK (refunded_sen >= 0 AND refunded_sen <= amount_sen);

-- A booking's history names a child cancelled on its own, and that child's refund.
ALTER TABLE booking_events DROP CONSTRAINT booking_events_kind_check;
ALTER TABLE booking_events ADD CONSTRAINT booking_events_kind_check
  CHECK (kind IN ('booked', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed', 'child_cancelled', 'child_refunded'));
ALTER TABLE booking_events ADD COLUMN child_name text;
