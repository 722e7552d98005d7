-- The language the parent booked in (issue 14): their confirmation, refund, moved, cancelled and reminder mails and
-- calendar invitations are written in it. Bookings made before it existed were made in English.
ALTER TABLE payments ADD COLUMN locale text NOT NULL DEFAULT 'en' CONSTRAINT payments_locale_check CHECK (locale IN ('en', 'ms', 'zh'));

-- The language of a message to a parent, sent as its Content-Language header; NULL for the staff's messages (English,
-- no header), as every message queued before this migration.
ALTER TABLE mail_outbox ADD COLUMN locale text CONSTRAINT mail_outbox_locale_check CHECK (locale IN ('en', 'ms', 'zh'));
