-- Issue 37: a waitlist entry for brothers and sisters: a time is offered to it only when this many seats are free
-- there, and its offer holds them all under one token. Entries made before were for one child.
ALTER TABLE waitlist_entries ADD COLUMN children smallint NOT NULL DEFAULT 1 CHECK (children BETWEEN 1 AND 4);
