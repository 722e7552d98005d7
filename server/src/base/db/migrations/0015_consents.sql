-- The parent's consent to the privacy notice (issue 28, PDPA 2010 as amended in 2024): which notice version, in which
-- language, when and through which channel ('web': the booking form; 'staff': a direct booking by staff; 'legacy':
-- bookings made before consent was asked). Each payment names its consent (NOT NULL), so a booking without a recorded
-- consent cannot exist; a slot a staff member books directly names one too. Rows made before this migration get a
-- 'legacy' consent each, so old rows stay valid and nothing pretends they were consented to.
CREATE TABLE consents (
  id serial PRIMARY KEY,
  notice_version text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'ms', 'zh')),
  channel text NOT NULL CHECK (channel IN ('web', 'staff', 'legacy')),
  given_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE payments ADD COLUMN consent_id integer UNIQUE REFERENCES consents (id);
ALTER TABLE slots ADD COLUMN consent_id integer REFERENCES consents (id);

-- One 'legacy' consent per payment made before this migration (the id it will get is computed from the row order).
CREATE TEMPORARY TABLE legacy_consent_of ON COMMIT DROP AS
  SELECT id AS payment_id, locale, created_at, nextval('consents_id_seq')::integer AS consent_id FROM payments;
INSERT INTO consents (id, notice_version, language, channel, given_at)
  SELECT consent_id, 'legacy', locale, 'legacy', created_at FROM legacy_consent_of;
UPDATE payments SET consent_id = l.consent_id FROM legacy_consent_of l WHERE payments.id = l.payment_id;
ALTER TABLE payments ALTER COLUMN consent_id SET NOT NULL;

-- A booked slot carries its booking's consent: the payment's, or a 'legacy' one for direct bookings made before.
UPDATE slots SET consent_id = p.consent_id FROM payments p WHERE slots.status = 'booked' AND p.reference = slots.booking_reference;
CREATE TEMPORARY TABLE legacy_slot_consent_of ON COMMIT DROP AS
  SELECT id AS slot_id, COALESCE(booked_at, created_at) AS given_at, nextval('consents_id_seq')::integer AS consent_id
  FROM slots WHERE status = 'booked' AND consent_id IS NULL;
INSERT INTO consents (id, notice_version, language, channel, given_at)
  SELECT consent_id, 'legacy', 'en', 'legacy', given_at FROM legacy_slot_consent_of;
UPDATE slots SET consent_id = l.consent_id FROM legacy_slot_consent_of l WHERE slots.id = l.slot_id;
