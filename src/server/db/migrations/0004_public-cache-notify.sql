-- Announces every change to what anonymous visitors see of communities on the channel hearth_public,
-- so each app process drops its cached public answers (src/server/lib/public-cache.ts). Changes to
-- the counters alone (member_count, post_count) and to updated_at are not announced: cached pages
-- may show counts a moment old.
CREATE OR REPLACE FUNCTION hearth_notify_public_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - 'member_count' - 'post_count' - 'updated_at')
                        = (to_jsonb(NEW) - 'member_count' - 'post_count' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('hearth_public', coalesce(NEW.id, OLD.id)::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_public_change AFTER INSERT OR UPDATE OR DELETE ON communities
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_public_change();
--> statement-breakpoint
-- Post categories are shown on public community pages too.
CREATE OR REPLACE FUNCTION hearth_notify_category_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_public', '');
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_category_public_change AFTER INSERT OR UPDATE OR DELETE ON post_categories
  FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_category_change();
