-- A settings change's notice names the updated_at it moved to ('u:<id>:<ms since 1970>'), so a process that
-- already built its body from those settings (the notice came after the body: NOTIFY is delivered when it is
-- delivered) keeps serving it from memory. Processes of the release before read only the id, as before.
CREATE OR REPLACE FUNCTION world_data_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('world_data', 'd:' || OLD.id::text);
    RETURN OLD;
  END IF;
  PERFORM pg_notify('world_data',
    'u:' || NEW.id::text || ':' || floor(extract(epoch from NEW.updated_at) * 1000)::bigint::text);
  RETURN NEW;
END
$$;
