-- Issue 28: corrections of a visitor's name, email or phone made from the request log are in the audit trail.
-- The audit trail's action list is extended, not rewritten: the actions the CHECK allows now (whatever earlier
-- migrations of any branch added) are read from the constraint itself and kept, and this migration's are added.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1] ORDER BY m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'audit_log'::regclass AND c.conname = 'audit_log_action_check';
  allowed := array(SELECT DISTINCT a FROM unnest(allowed || ARRAY['privacy_visitor_corrected']) AS a ORDER BY a);
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  -- Written as IN ('a', 'b', …), as the earlier migrations wrote it, so the next one can read it the same way.
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s))',
    (SELECT string_agg(quote_literal(a), ', ' ORDER BY a) FROM unnest(allowed) AS a));
END $$;

-- Issue 28 (retention): audit entries are kept, but the personal data in them is anonymised on the same schedule as
-- the record they name. The trail stays append-only for everything else: an UPDATE passes the trigger only when it
-- changes nothing but `detail` and `target`, and only by replacing string values with '[anonymised]' (same keys,
-- same array lengths, every other value equal). Anything else is still refused, whoever asks.
CREATE FUNCTION audit_only_anonymised(o jsonb, n jsonb) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  i integer;
BEGIN
  IF o IS NULL OR n IS NULL THEN RETURN o IS NOT DISTINCT FROM n; END IF;
  IF o = n THEN RETURN true; END IF;
  IF jsonb_typeof(o) = 'string' THEN RETURN n = to_jsonb('[anonymised]'::text); END IF;
  IF jsonb_typeof(o) <> jsonb_typeof(n) THEN RETURN false; END IF;
  IF jsonb_typeof(o) = 'object' THEN
    IF (SELECT array_agg(x ORDER BY x) FROM jsonb_object_keys(o) AS x) IS DISTINCT FROM (SELECT array_agg(x ORDER BY x) FROM jsonb_object_keys(n) AS x) THEN
      RETURN false;
    END IF;
    FOR k IN SELECT jsonb_object_keys(o) LOOP
      IF NOT audit_only_anonymised(o -> k, n -> k) THEN RETURN false; END IF;
    END LOOP;
    RETURN true;
  END IF;
  IF jsonb_typeof(o) = 'array' THEN
    IF jsonb_array_length(o) <> jsonb_array_length(n) THEN RETURN false; END IF;
    FOR i IN 0 .. jsonb_array_length(o) - 1 LOOP
      IF NOT audit_only_anonymised(o -> i, n -> i) THEN RETURN false; END IF;
    END LOOP;
    RETURN true;
  END IF;
  RETURN false;
END;
$$;

CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor = OLD.actor
     AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id AND NEW.action = OLD.action
     AND NEW.ip IS NOT DISTINCT FROM OLD.ip
     AND (NEW.target IS NOT DISTINCT FROM OLD.target OR NEW.target = '[anonymised]')
     AND audit_only_anonymised(OLD.detail, NEW.detail) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
