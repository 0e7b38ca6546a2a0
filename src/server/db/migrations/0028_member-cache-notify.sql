-- The member cache (src/server/lib/community-access.ts, docs/decisions/0022-member-cache.md): each
-- process keeps a viewer's role in a community, and their all-time standing there, for the hot
-- reads (feed, month view, leaderboard). Every change to either is announced on hearth_members
-- with `community_id.user_id`, which drops that one member's entries in every process: someone
-- joining, leaving, being removed or banned, or changing role; their points or level moving.
CREATE OR REPLACE FUNCTION hearth_notify_member() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_members', coalesce(NEW.community_id, OLD.community_id)::text || '.' || coalesce(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_member_cache_insert_delete AFTER INSERT OR DELETE ON community_members
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_member();
--> statement-breakpoint
CREATE TRIGGER community_member_cache_role AFTER UPDATE OF role ON community_members
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role) EXECUTE FUNCTION hearth_notify_member();
--> statement-breakpoint
CREATE TRIGGER member_points_cache_insert_delete AFTER INSERT OR DELETE ON member_points
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_member();
--> statement-breakpoint
CREATE TRIGGER member_points_cache_change AFTER UPDATE ON member_points
  FOR EACH ROW WHEN (OLD.points IS DISTINCT FROM NEW.points OR OLD.level IS DISTINCT FROM NEW.level)
  EXECUTE FUNCTION hearth_notify_member();
