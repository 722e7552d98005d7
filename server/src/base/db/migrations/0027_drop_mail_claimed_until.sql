-- The outbox's own claim on a message, from before each message was a pg-boss job: pg-boss's lease holds it now.
ALTER TABLE mail_outbox DROP COLUMN IF EXISTS claimed_until;
