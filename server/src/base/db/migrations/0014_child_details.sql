-- The child an assessment is for (issue 24): their name and the year or grade applied for (the English name of one of
-- the school's `years` in brand.config.json), so staff can prepare. On the payment (what the parent typed, carried to
-- the slot when it books) and on the slot (a staff member's direct booking has no payment). Nullable: bookings made
-- before this migration were never asked, and an available slot has no visitor.
ALTER TABLE payments ADD COLUMN child_name text;
ALTER TABLE payments ADD COLUMN child_year text;
ALTER TABLE slots ADD COLUMN child_name text;
ALTER TABLE slots ADD COLUMN child_year text;
