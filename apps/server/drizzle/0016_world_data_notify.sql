-- Every process serving world data keeps each world's body in memory; it learns here (LISTEN world_data)
-- that a world's settings changed ('u:<id>', updated_at moved: the next answer is a fresh build) or that
-- the world was deleted ('d:<id>': stop serving it at once).
CREATE OR REPLACE FUNCTION world_data_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('world_data', 'd:' || OLD.id::text);
    RETURN OLD;
  END IF;
  PERFORM pg_notify('world_data', 'u:' || NEW.id::text);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER worlds_updated_notify AFTER UPDATE ON worlds FOR EACH ROW
  WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at) EXECUTE FUNCTION world_data_notify();--> statement-breakpoint
CREATE TRIGGER worlds_deleted_notify AFTER DELETE ON worlds FOR EACH ROW EXECUTE FUNCTION world_data_notify();
