-- Announces every change to what a community's feed shows on the channel hearth_feed (payload: the
-- community id), so each app process drops its cached feed pages of that community
-- (src/server/lib/public-cache.ts). Counter changes (likes, comments, shares, poll counts) are not
-- announced: cached pages may show them a moment old.
CREATE OR REPLACE FUNCTION hearth_notify_feed_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND
     (to_jsonb(OLD) - 'likes_count' - 'comments_count' - 'share_count' - 'poll_data' - 'updated_at')
   = (to_jsonb(NEW) - 'likes_count' - 'comments_count' - 'share_count' - 'poll_data' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('hearth_feed', coalesce(NEW.community_id, OLD.community_id)::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_feed_change AFTER INSERT OR UPDATE OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_feed_change();
