-- Issue 28: the breach log (PDPA s. 12B, as amended in 2024). A breach is notified to the Commissioner within 72 hours
-- of being found and to the people it touches within 7 days after; both deadlines are computed from these columns.
-- Who it touches is a query over the records (every parent who booked between two GMT+8 days, and/or at a school),
-- run when asked, so it also finds what was written after the breach was logged. The parents' notice can carry the
-- texts in Malay and Chinese; English is required.
CREATE TABLE breaches (
  id serial PRIMARY KEY,
  found_at timestamptz NOT NULL,
  what_happened text NOT NULL,
  data_affected text NOT NULL,
  what_happened_ms text,
  data_affected_ms text,
  what_happened_zh text,
  data_affected_zh text,
  booked_from date,
  booked_to date,
  school text,
  commissioner_notified_at timestamptz,
  people_notified_at timestamptz,
  people_notified integer,
  recorded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((booked_from IS NULL) = (booked_to IS NULL)),
  CHECK (booked_from IS NULL OR booked_from <= booked_to),
  CHECK (booked_from IS NOT NULL OR school IS NOT NULL)
);

-- The breach's actions in the audit trail, and its notice in the outbox: both lists extended from the live CHECK
-- (whatever earlier migrations of any branch allowed stays allowed), written back as IN (...) for the next one.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'audit_log'::regclass AND c.conname = 'audit_log_action_check';
  allowed := allowed || ARRAY['breach_logged', 'breach_commissioner_notified', 'breach_people_exported', 'breach_people_notified'];
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));

  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'mail_outbox'::regclass AND c.conname = 'mail_outbox_kind_check';
  allowed := allowed || ARRAY['breach_notification'];
  ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
  EXECUTE format('ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check CHECK (kind IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
