-- Says at commit that the public list may have changed, with slot_changes_seq's new value as the payload: the API
-- relays it to whoever waits on GET /public/list/changes (the shell's server, which then reads the list again).
CREATE OR REPLACE FUNCTION note_slot_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('slot_changes', nextval('slot_changes_seq')::text);
  RETURN NULL;
END
$$;
