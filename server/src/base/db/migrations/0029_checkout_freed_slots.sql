-- Issue 34: one owner of every hold (server/src/checkout). Each freeing of a slot (added by staff, a hold released or
-- lapsed, a booking cancelled or moved away, an offer ended) takes the next number of slot_freed_seq, and an entry
-- takes one when it starts waiting: the waitlist offers only a slot freed after its entry began waiting, and looks at
-- each freeing once (waitlist_slot_checks), so a slot anyone could book is never taken off the timetable for the list.
CREATE SEQUENCE slot_freed_seq;
ALTER TABLE slots ADD COLUMN freed_seq bigint NOT NULL DEFAULT nextval('slot_freed_seq');
-- The lapsed holds the offer pass clears (so their freeing is numbered) are found without reading every slot.
CREATE INDEX slots_held_idx ON slots (hold_expires_at) WHERE hold_token_hash IS NOT NULL;

-- The waitlist's side: the freeing of each slot it has looked at (offered, or nobody fitting: public from then on).
CREATE TABLE waitlist_slot_checks (
  slot_id integer PRIMARY KEY REFERENCES slots (id) ON DELETE CASCADE,
  freed_seq bigint NOT NULL
);
-- Slots free before this migration were not freed while anyone waited: seen.
INSERT INTO waitlist_slot_checks (slot_id, freed_seq) SELECT id, freed_seq FROM slots;

ALTER TABLE waitlist_entries
  -- When it began waiting, on the freeings' scale (after every slot freed so far).
  ADD COLUMN waiting_seq bigint NOT NULL DEFAULT nextval('slot_freed_seq'),
  -- Keyed hash of the client network that made the entry (as slots.hold_client): its offers are charged to that network.
  ADD COLUMN client text,
  -- An entry whose offer ended unpaid is offered again no sooner than this.
  ADD COLUMN offerable_after timestamptz;
CREATE INDEX waitlist_entries_live_client_idx ON waitlist_entries (client) WHERE state IN ('waiting', 'offered');
