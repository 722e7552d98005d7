-- Issue 35: staff roles, the admin's second factor, and a second admin's word before a breach is mailed to everyone.
-- Roles: 'staff' (slots, bookings, waitlist) or 'admin' (colleagues, privacy, breaches, calendar feed). The oldest
-- enabled account becomes the admin; every other account is staff until an admin makes it admin.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'staff' CHECK (role IN ('staff', 'admin'));
UPDATE users SET role = 'admin'
WHERE id = (SELECT id FROM users WHERE disabled_at IS NULL ORDER BY created_at, id LIMIT 1);

-- TOTP (RFC 6238): the secret being enrolled until its first code is right, then the enrolled one, and the last
-- 30-second step a code was accepted for (a code is never accepted twice).
ALTER TABLE users ADD COLUMN totp_pending_secret text;
ALTER TABLE users ADD COLUMN totp_secret text;
ALTER TABLE users ADD COLUMN totp_enrolled_at timestamptz;
ALTER TABLE users ADD COLUMN totp_last_step bigint;

-- Ten one-time recovery codes per enrolment, only their SHA-256 kept.
CREATE TABLE staff_recovery_codes (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- When this session last gave the second factor (admin actions need it within 12 hours).
ALTER TABLE sessions ADD COLUMN stepped_up_at timestamptz;

-- Mailing every affected parent, where the school has two admins or more: who asked first (email, as recorded_by), when.
ALTER TABLE breaches ADD COLUMN notify_asked_by text;
ALTER TABLE breaches ADD COLUMN notify_asked_at timestamptz;

-- The new actions in the audit trail (extended from the live CHECK, as 0024 does).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'audit_log'::regclass AND c.conname = 'audit_log_action_check';
  allowed := allowed || ARRAY['account_role_changed', 'second_factor_enrolled', 'second_factor_verified',
    'second_factor_failed', 'recovery_code_used', 'second_factor_reset', 'breach_notify_asked'];
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
