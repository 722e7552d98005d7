-- Issue 41: the Insights page reads a period of payments, cancellations and booking events; at a season's size
-- (bench/insights.ts: 71,000 payments, 55,000 booking events) each was a full scan of the table.
CREATE INDEX payments_created_idx ON payments (created_at);
CREATE INDEX payments_cancelled_idx ON payments (cancelled_at) WHERE booking_status = 'cancelled';
CREATE INDEX booking_events_changes_idx ON booking_events (created_at) WHERE kind IN ('cancelled', 'child_cancelled', 'rescheduled');
