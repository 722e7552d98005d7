-- Issue 37: a time can seat several children at once (one per assessor). Each seat is its own row of `slots`, so a seat
-- is held, booked and freed by the same one-row conditional statements as before and a time can never be oversold: its
-- seats are its live rows. A time's first seat is seat 1; a time with one seat is exactly the slot it always was.
ALTER TABLE slots ADD COLUMN seat smallint NOT NULL DEFAULT 1 CHECK (seat BETWEEN 1 AND 6);
DROP INDEX slots_live_start_uq;
CREATE UNIQUE INDEX slots_live_start_seat_uq ON slots (start_at, seat) WHERE deleted_at IS NULL;
