-- What else changes a calendar feed (src/server/features/events/calendar-feed.ts): someone joining,
-- leaving or changing role in a community, and the community showing or hiding its calendar or
-- changing its name (the feed names it). Announced on hearth_calendar with the community id, as
-- changes to its occurrences are (migration 0020).
CREATE OR REPLACE FUNCTION hearth_notify_calendar_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.role IS NOT DISTINCT FROM NEW.role THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('hearth_calendar', coalesce(NEW.community_id, OLD.community_id)::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_member_calendar_change AFTER INSERT OR UPDATE OR DELETE ON community_members
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_calendar_members();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_calendar_community() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_calendar', NEW.id::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_calendar_change AFTER UPDATE OF show_calendar, name ON communities
  FOR EACH ROW WHEN (OLD.show_calendar IS DISTINCT FROM NEW.show_calendar OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION hearth_notify_calendar_community();
