-- Who holds a slot, for the hold limits (server/src/limits/hold-limits.ts): keyed hashes (HMAC with a key in
-- app_secrets) of the client's address, and of the visitor's email and phone once a payment starts; never the raw
-- values. They count only while the hold is live (hold_expires_at > now(), status 'available'); later holds overwrite them.
ALTER TABLE slots ADD COLUMN hold_client text;
ALTER TABLE slots ADD COLUMN hold_email text;
ALTER TABLE slots ADD COLUMN hold_phone text;

CREATE INDEX slots_hold_client_idx ON slots (hold_client, hold_expires_at) WHERE hold_client IS NOT NULL AND status = 'available';
CREATE INDEX slots_hold_email_idx ON slots (hold_email, hold_expires_at) WHERE hold_email IS NOT NULL AND status = 'available';
CREATE INDEX slots_hold_phone_idx ON slots (hold_phone, hold_expires_at) WHERE hold_phone IS NOT NULL AND status = 'available';
