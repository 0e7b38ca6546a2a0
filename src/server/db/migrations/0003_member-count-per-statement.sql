-- member_count moves once per statement and community (transition tables), not once per row: a bulk
-- insert of a thousand members updates the community row once instead of a thousand times.
DROP TRIGGER IF EXISTS community_member_count ON community_members;
--> statement-breakpoint
DROP FUNCTION IF EXISTS hearth_member_count();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_member_count_added() RETURNS trigger AS $$
BEGIN
  UPDATE communities c SET member_count = c.member_count + n.added
    FROM (SELECT community_id, count(*)::int AS added FROM added_rows GROUP BY community_id) n
   WHERE c.id = n.community_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_member_count_removed() RETURNS trigger AS $$
BEGIN
  UPDATE communities c SET member_count = GREATEST(c.member_count - n.removed, 0)
    FROM (SELECT community_id, count(*)::int AS removed FROM removed_rows GROUP BY community_id) n
   WHERE c.id = n.community_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_member_count_added AFTER INSERT ON community_members
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_member_count_added();
--> statement-breakpoint
CREATE TRIGGER community_member_count_removed AFTER DELETE ON community_members
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_member_count_removed();
