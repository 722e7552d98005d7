-- Refunds are jobs of pg-boss's `refund` queue (payments/refunds.ts): the next attempt's time is that job's, so the
-- payment no longer keeps its own lease and backoff time.
ALTER TABLE payments DROP COLUMN next_refund_at;
