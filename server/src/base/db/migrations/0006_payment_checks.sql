-- Fair reconciliation, throttled gateway status, refunds that back off and are visible, and refund mails.
ALTER TABLE payments
  -- When the gateway was last asked about this payment (reconciler or status poll): claimed in the same UPDATE.
  ADD COLUMN last_checked_at   timestamptz,
  -- What the gateway said was paid (refunds give back this, not the expected amount).
  ADD COLUMN paid_amount_sen   integer CHECK (paid_amount_sen IS NULL OR paid_amount_sen >= 0),
  -- Failed refund calls (a refund_pending row with attempts > 0 is a failing refund staff must see).
  ADD COLUMN refund_attempts   integer NOT NULL DEFAULT 0,
  ADD COLUMN refund_last_error text,
  -- The next refund attempt is due at this time (backoff, or the lease of an attempt in flight).
  ADD COLUMN next_refund_at    timestamptz;

-- The reconciler picks open payments by when they were last checked, least recently first.
DROP INDEX payments_open_idx;
CREATE INDEX payments_open_idx ON payments (last_checked_at NULLS FIRST, id) WHERE status IN ('pending', 'processing', 'refund_pending');

-- A paid-but-not-booked payment tells the parent and the school's admin.
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check
  CHECK (kind IN ('visitor_confirmation', 'admin_notification', 'visitor_refund', 'admin_refund'));
