CREATE TABLE "guild_member_totals" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"linked" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- guild_member_totals follows every write of guild_members (a member current or not: left_at) and of
-- vrchat_links (a current member linked or not), one statement at a time: a fill's batch of 1,000 rows is one
-- update of its server's row. Rows are locked in server order, so two writes over several servers (a link of a
-- member of 50 servers, an account's erasure) cannot deadlock each other.
CREATE OR REPLACE FUNCTION guild_member_totals_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT d.guild_id, sum(d.change), coalesce(sum(d.change) FILTER (WHERE l.discord_user_id IS NOT NULL), 0)
      FROM (SELECT guild_id, user_id, 1 AS change FROM new_rows WHERE left_at IS NULL) d
      LEFT JOIN vrchat_links l ON l.discord_user_id = d.user_id
     GROUP BY d.guild_id ORDER BY d.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET members = t.members + excluded.members, linked = t.linked + excluded.linked;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT d.guild_id, sum(d.change), coalesce(sum(d.change) FILTER (WHERE l.discord_user_id IS NOT NULL), 0)
      FROM (SELECT guild_id, user_id, -1 AS change FROM old_rows WHERE left_at IS NULL) d
      LEFT JOIN vrchat_links l ON l.discord_user_id = d.user_id
     GROUP BY d.guild_id ORDER BY d.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET members = t.members + excluded.members, linked = t.linked + excluded.linked;
  ELSE
    -- Only rows whose standing changed count (a role or name change nets to zero and joins no link).
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT d.guild_id, sum(d.change), coalesce(sum(d.change) FILTER (WHERE l.discord_user_id IS NOT NULL), 0)
      FROM (SELECT guild_id, user_id, sum(change) AS change
              FROM (SELECT guild_id, user_id, 1 AS change FROM new_rows WHERE left_at IS NULL
                    UNION ALL SELECT guild_id, user_id, -1 FROM old_rows WHERE left_at IS NULL) x
             GROUP BY guild_id, user_id HAVING sum(change) <> 0) d
      LEFT JOIN vrchat_links l ON l.discord_user_id = d.user_id
     GROUP BY d.guild_id ORDER BY d.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET members = t.members + excluded.members, linked = t.linked + excluded.linked;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER guild_members_totals_insert AFTER INSERT ON guild_members REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_members();--> statement-breakpoint
CREATE TRIGGER guild_members_totals_update AFTER UPDATE ON guild_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_members();--> statement-breakpoint
CREATE TRIGGER guild_members_totals_delete AFTER DELETE ON guild_members REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_members();--> statement-breakpoint
CREATE OR REPLACE FUNCTION guild_member_totals_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for the events that have it: one branch per event.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT m.guild_id, 0, count(*) FROM new_rows d
      JOIN guild_members m ON m.user_id = d.discord_user_id AND m.left_at IS NULL
     GROUP BY m.guild_id ORDER BY m.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET linked = t.linked + excluded.linked;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT m.guild_id, 0, -count(*) FROM old_rows d
      JOIN guild_members m ON m.user_id = d.discord_user_id AND m.left_at IS NULL
     GROUP BY m.guild_id ORDER BY m.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET linked = t.linked + excluded.linked;
  ELSE
    -- A refresh or a verification keeps the account's Discord id: nothing to count.
    INSERT INTO guild_member_totals AS t (guild_id, members, linked)
    SELECT m.guild_id, 0, sum(d.change)
      FROM (SELECT discord_user_id, sum(change) AS change
              FROM (SELECT discord_user_id, 1 AS change FROM new_rows
                    UNION ALL SELECT discord_user_id, -1 FROM old_rows) x
             GROUP BY discord_user_id HAVING sum(change) <> 0) d
      JOIN guild_members m ON m.user_id = d.discord_user_id AND m.left_at IS NULL
     GROUP BY m.guild_id ORDER BY m.guild_id
    ON CONFLICT (guild_id) DO UPDATE SET linked = t.linked + excluded.linked;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER vrchat_links_totals_insert AFTER INSERT ON vrchat_links REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_links();--> statement-breakpoint
CREATE TRIGGER vrchat_links_totals_update AFTER UPDATE ON vrchat_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_links();--> statement-breakpoint
CREATE TRIGGER vrchat_links_totals_delete AFTER DELETE ON vrchat_links REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION guild_member_totals_links();--> statement-breakpoint
-- The totals of what is already there.
INSERT INTO guild_member_totals (guild_id, members, linked)
SELECT m.guild_id, count(*), count(l.discord_user_id)
  FROM guild_members m LEFT JOIN vrchat_links l ON l.discord_user_id = m.user_id
 WHERE m.left_at IS NULL
 GROUP BY m.guild_id
ON CONFLICT (guild_id) DO NOTHING;
