-- Issue 34. The waitlist's "your place has ended" mail gets its kind: the outbox's CHECK extended from the live one
-- (whatever earlier migrations of any branch allowed stays allowed), written back as IN (...) for the next one.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'mail_outbox'::regclass AND c.conname = 'mail_outbox_kind_check';
  allowed := allowed || ARRAY['waitlist_entry_ended'];
  ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
  EXECUTE format('ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check CHECK (kind IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
