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

-- When a message is tried again is pg-boss's (its job's start_after), so next_attempt_at was written and never read.
-- Its index (mail_outbox_due_idx) goes with it; the unsent rows keep a partial index of their own, for the relay's
-- look for rows without a job, the stuck-mail list and /metrics' oldest unsent message.
ALTER TABLE mail_outbox DROP COLUMN IF EXISTS next_attempt_at;
CREATE INDEX mail_outbox_unsent_idx ON mail_outbox (created_at) WHERE status IN ('pending', 'sending');
