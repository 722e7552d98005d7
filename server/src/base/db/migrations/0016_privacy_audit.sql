-- Staff looking up or exporting a person's data (issue 28, PDPA access and portability) is recorded in the audit trail.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'login', 'login_failed', 'logout', 'logout_all', 'slot_created', 'slot_deleted', 'booking_direct',
  'booking_cancelled_by_staff', 'booking_moved_by_staff', 'refund', 'account_added', 'account_disabled',
  'password_reset_requested', 'password_reset', 'parent_rescheduled', 'parent_cancelled',
  'privacy_person_viewed', 'privacy_person_exported'));
