-- Issue 38: a parent's WhatsApp opt-in, given with the PDPA consent the row already names (its notice version,
-- language, channel and time are the consent's; the number is the row's own), withdrawn from the manage page or by STOP.
ALTER TABLE payments
  ADD COLUMN whatsapp_opt_in_at timestamptz,
  ADD COLUMN whatsapp_opt_out_at timestamptz,
  -- "Confirm I'm coming" pressed on the reminder: staff see it; nothing else changes.
  ADD COLUMN confirmed_by_parent_at timestamptz;
ALTER TABLE waitlist_entries
  ADD COLUMN whatsapp_opt_in_at timestamptz,
  ADD COLUMN whatsapp_opt_out_at timestamptz;
-- A number that replied STOP: no WhatsApp message to it that was written before a later opt-in is sent.
CREATE TABLE whatsapp_stops (
  to_e164 text PRIMARY KEY,
  stopped_at timestamptz NOT NULL DEFAULT now()
);
-- A message that has not left by then never goes (a reminder after its visit began, an offer after it ended).
ALTER TABLE whatsapp_messages ADD COLUMN send_before timestamptz;
