-- Audit trail (issue 15): who did what, when and from where. Appended only: a trigger refuses UPDATE, DELETE and
-- TRUNCATE, so no route (and no slip in one) can change or remove a record.
CREATE TABLE audit_log (
  id            bigserial PRIMARY KEY,
  at            timestamptz NOT NULL DEFAULT now(),
  -- A staff member's email, 'parent', 'system', or the email tried at a failed login.
  actor         text NOT NULL,
  -- The staff account, when the actor is one (no foreign key: records outlive accounts).
  actor_user_id integer,
  action        text NOT NULL CHECK (action IN (
                  'login', 'login_failed', 'logout', 'logout_all', 'slot_created', 'slot_deleted', 'booking_direct',
                  'booking_cancelled_by_staff', 'booking_moved_by_staff', 'refund', 'account_added', 'account_disabled',
                  'password_reset_requested', 'password_reset', 'parent_rescheduled', 'parent_cancelled')),
  -- A slot id, a booking reference or an account email.
  target        text,
  detail        jsonb,
  -- The client's address as the API saw it.
  ip            text
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
CREATE INDEX audit_log_actor_at_idx ON audit_log (actor, at);
CREATE INDEX audit_log_action_at_idx ON audit_log (action, at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
