-- Staff accounts (issue 15): disabled accounts, last login, password reset tokens, and reset mail in the outbox.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
ALTER TABLE users ADD COLUMN last_login_at timestamptz;

-- Only the SHA-256 of a reset token is stored; a token is used at most once (used_at set in one UPDATE) before expires_at.
CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);

-- A reset mail belongs to no payment.
ALTER TABLE mail_outbox ALTER COLUMN payment_id DROP NOT NULL;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check
  CHECK (kind IN ('visitor_confirmation', 'admin_notification', 'visitor_refund', 'admin_refund',
                  'visitor_rescheduled', 'admin_rescheduled', 'visitor_cancelled', 'admin_cancelled', 'visitor_reminder',
                  'staff_password_reset'));
