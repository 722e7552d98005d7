-- Issue 28: a booking without a recorded consent cannot exist. A booking lives on its slot (status 'booked' with the
-- visitor's details) and, when paid for, on its payment (payments.consent_id is NOT NULL since 0015). The slot's
-- consent_id was only filled by the code: now the database refuses a booked slot that names no consent, whoever
-- writes it (a route, a fix by hand, a future code path). The foreign key (0015) makes the consent a real row.
-- A booked slot written since 0015 without a consent (none should exist) gets a 'legacy' one first, as 0015 did.
CREATE TEMPORARY TABLE unconsented_slot ON COMMIT DROP AS
  SELECT id AS slot_id, COALESCE(booked_at, created_at) AS given_at, nextval('consents_id_seq')::integer AS consent_id
  FROM slots WHERE status = 'booked' AND consent_id IS NULL;
INSERT INTO consents (id, notice_version, language, channel, given_at)
  SELECT consent_id, 'legacy', 'en', 'legacy', given_at FROM unconsented_slot;
UPDATE slots SET consent_id = u.consent_id FROM unconsented_slot u WHERE slots.id = u.slot_id;

-- The slot-change trigger (0003) is deferred to commit; run what is pending now, since ALTER TABLE refuses to run
-- with trigger events pending on the table (earlier migrations of this same run update slots).
SET CONSTRAINTS ALL IMMEDIATE;
ALTER TABLE slots ADD CONSTRAINT slots_booked_names_consent CHECK (status <> 'booked' OR consent_id IS NOT NULL);
