-- Moves on every committed change to a slot row (booking, hold, release, create, delete), whichever code path or
-- process made it: the public list's one-second cache is valid only while this is unchanged (see docs/PERFORMANCE.md).
-- A sequence, not a counter row, so concurrent writers never wait on each other; deferred, so it moves at commit.
CREATE SEQUENCE slot_changes_seq;

CREATE FUNCTION note_slot_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('slot_changes_seq');
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER slots_changed AFTER INSERT OR UPDATE OR DELETE ON slots
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_slot_change();

CREATE TRIGGER slots_truncated AFTER TRUNCATE ON slots FOR EACH STATEMENT EXECUTE FUNCTION note_slot_change();
