-- Announces every change to what a community's month view shows on the channel hearth_calendar
-- (payload: the community id), so each app process drops its cached month views of that community
-- (src/server/lib/public-cache.ts, features/events/calendar-month.ts). RSVP counters are not part
-- of the month view: updates that touch only them (and updated_at) are not announced.
CREATE OR REPLACE FUNCTION hearth_notify_calendar_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND
     (to_jsonb(OLD) - 'going_count' - 'waitlist_count' - 'updated_at')
   = (to_jsonb(NEW) - 'going_count' - 'waitlist_count' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('hearth_calendar', coalesce(NEW.community_id, OLD.community_id)::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER event_occurrence_calendar_change AFTER INSERT OR UPDATE OR DELETE ON event_occurrences
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_calendar_change();
