-- Issue 35 (the record of who did what): the API's own role (db/api-role.ts) could append a record back-dated, in
-- another person's name, and anonymise "to whom" on any record. For every role that does not own audit_log:
--  * `at` is the database's clock at insert (a supplied one is ignored);
--  * `actor` and `actor_user_id` must be the ones the writing transaction declared with
--    set_config('app.actor', …, true) and set_config('app.actor_user_id', …, true), which the audit domain's
--    recordAudit does in the same statement as its insert; anything else is refused;
--  * the anonymising update (migration 0023) passes only on records at least audit_log_anonymisable_after() old.
-- The table's owner (the role that runs the migrations, and PGlite's single role) can ALTER TABLE ... DISABLE TRIGGER
-- anyway, so these rules do not hold it: tests and tools running as the owner may still write a dated record.

-- The retention rule's figure, stated once: the shortest period after which retention anonymises a person
-- (brand.config.json retention.unpaidOrCancelledMonths, 6 by default). retention.ts reads it from here.
CREATE FUNCTION audit_log_anonymisable_after() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '6 months' $$;

-- Whether the connected role owns audit_log (or is a member of its owner, or a superuser): such a role can switch
-- the triggers off, so they do not try to hold it.
CREATE FUNCTION audit_log_owned_by_current_role() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT pg_has_role(current_user, c.relowner, 'USAGE') FROM pg_class c WHERE c.oid = 'audit_log'::regclass
$$;

CREATE FUNCTION audit_log_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF audit_log_owned_by_current_role() THEN
    RETURN NEW;
  END IF;
  NEW.at := now();
  IF NEW.actor IS DISTINCT FROM current_setting('app.actor', true)
     OR NEW.actor_user_id IS DISTINCT FROM nullif(current_setting('app.actor_user_id', true), '')::integer THEN
    RAISE EXCEPTION 'audit_log: the actor is not the one this transaction declared (app.actor)' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER audit_log_stamp BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_stamp();

-- 0023's rule, plus: a change (anonymising) only on a record old enough for retention.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor = OLD.actor
     AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id AND NEW.action = OLD.action
     AND NEW.ip IS NOT DISTINCT FROM OLD.ip
     AND (NEW.target IS NOT DISTINCT FROM OLD.target OR NEW.target = '[anonymised]')
     AND audit_only_anonymised(OLD.detail, NEW.detail) THEN
    IF (NEW.target IS NOT DISTINCT FROM OLD.target AND NEW.detail IS NOT DISTINCT FROM OLD.detail)
       OR OLD.at < now() - audit_log_anonymisable_after()
       OR audit_log_owned_by_current_role() THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_log: record % is too recent to anonymise (retention allows it after %)', OLD.id, audit_log_anonymisable_after()
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

-- A record naming a person retention has anonymised, but too recent to anonymise yet (a look-up made after the visit):
-- the values to replace wait here until the record is old enough, then retention replaces them and the row goes.
CREATE TABLE audit_anonymise_pending (
  audit_id bigint PRIMARY KEY, -- audit_log.id (no foreign key: TRUNCATE audit_log must meet its own trigger)
  vals     text[] NOT NULL
);
