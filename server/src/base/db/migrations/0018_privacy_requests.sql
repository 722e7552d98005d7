-- Access and correction requests under the PDPA (issue 28): answered within 21 days of receipt, or 35 with a recorded
-- extension notice. The due date is computed from these columns, never stored twice.
CREATE TABLE privacy_requests (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'correction')),
  person_email text,
  person_phone text,
  received_on date NOT NULL,
  extended_at timestamptz,
  handled_by text NOT NULL,
  answered_at timestamptz,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (person_email IS NOT NULL OR person_phone IS NOT NULL)
);

ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'login', 'login_failed', 'logout', 'logout_all', 'slot_created', 'slot_deleted', 'booking_direct',
  'booking_cancelled_by_staff', 'booking_moved_by_staff', 'refund', 'account_added', 'account_disabled',
  'password_reset_requested', 'password_reset', 'parent_rescheduled', 'parent_cancelled',
  'privacy_person_viewed', 'privacy_person_exported', 'retention_applied',
  'privacy_request_logged', 'privacy_request_extended', 'privacy_request_answered'));
