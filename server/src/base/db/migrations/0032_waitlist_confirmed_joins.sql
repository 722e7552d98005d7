-- Issue 35: nobody is put on a waitlist in another person's name. A join is 'pending' until it is confirmed from the
-- mail it sends (then 'waiting'); unconfirmed ones end 'unconfirmed' after a day, and "this wasn't me" ends it
-- 'disowned' and blocks joins for that address for 30 days. An entry that a booking ended remembers which booking,
-- so it comes back at its old place when that booking is cancelled within the entry's term.
ALTER TABLE waitlist_entries DROP CONSTRAINT IF EXISTS waitlist_entries_state_check;
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_state_check
  CHECK (state IN ('pending', 'waiting', 'offered', 'booked', 'expired', 'left', 'removed', 'unconfirmed', 'disowned'));
-- One request waiting for its confirmation per address and school: a second one replaces it (when it may be mailed).
CREATE UNIQUE INDEX waitlist_entries_pending_email_uq ON waitlist_entries (school, email) WHERE state = 'pending';
ALTER TABLE waitlist_entries ADD COLUMN ended_by_reference text;

-- Addresses whose owner said a join was not theirs: keyed hash of the email (HoldLimits.person), until when.
CREATE TABLE waitlist_join_blocks (
  email_key text PRIMARY KEY,
  until timestamptz NOT NULL
);

-- The confirmation mail gets its kind (the outbox's CHECK extended from the live one, as 0028 does).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'mail_outbox'::regclass AND c.conname = 'mail_outbox_kind_check';
  allowed := allowed || ARRAY['waitlist_confirm'];
  ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
  EXECUTE format('ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check CHECK (kind IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
