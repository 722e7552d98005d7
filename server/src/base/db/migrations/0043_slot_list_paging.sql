-- Issue 41: the dashboard's Booked view is a page of booked slots by start; without this a page read every live slot.
-- (Upcoming and Past page on slots_live_start_seat_uq, the stat counts are one pass over the live rows.)
CREATE INDEX slots_booked_list_idx ON slots (start_at, seat) WHERE deleted_at IS NULL AND status = 'booked';
