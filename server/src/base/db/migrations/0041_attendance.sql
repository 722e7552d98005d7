-- Issue 40: who came to a visit (server/src/visit-day/). A visit is a booking at one time (manage/visits.ts): its
-- reference (payments.reference, or slots.booking_reference of a staff booking with no payment) and its start.
-- One row per visit: the key makes a second mark from any process lose (409, or the same answer for the same state).
CREATE TABLE visit_attendance (
  reference          text NOT NULL,
  start_at           timestamptz NOT NULL,
  state              text NOT NULL CHECK (state IN ('arrived', 'noShow')),
  marked_at          timestamptz NOT NULL,
  -- The staff member's email and account (the account may later be disabled; the email stays as it was).
  marked_by          text NOT NULL,
  marked_by_user_id  integer REFERENCES users (id),
  PRIMARY KEY (reference, start_at)
);

-- The new actions in the audit trail (extended from the live CHECK, as 0040 does).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'audit_log'::regclass AND c.conname = 'audit_log_action_check';
  allowed := allowed || ARRAY['visit_arrived', 'visit_no_show', 'visit_attendance_undone'];
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
