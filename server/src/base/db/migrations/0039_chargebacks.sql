-- Issue 39: a card chargeback (CHIP's payment.charged_back webhook) is noted on the payment and in the booking's
-- history; the booking itself stays as it is (the office decides what to do).
ALTER TABLE payments ADD COLUMN chargeback_at timestamptz;
ALTER TABLE payments ADD COLUMN chargeback_amount_sen integer;
ALTER TABLE booking_events DROP CONSTRAINT booking_events_kind_check;
ALTER TABLE booking_events ADD CONSTRAINT booking_events_kind_check
  CHECK (kind IN ('booked', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed', 'child_cancelled', 'child_refunded', 'charged_back'));
