-- A change to a post is announced on hearth_feed as `community_id/post_id/new|changed/author_id` (it
-- was the community id alone), so each process drops the community's feed pages, that post's own
-- kept pages and its author's kept pending posts, and keeps the community's other posts' pages,
-- which did not change; a new post ("new") leaves everyone's unread count (decision 0032). A post
-- moved to another community or author is announced for both. A row deleted (with its community or
-- author, often many at once) names the community alone and drops all of it, once per community and
-- transaction, as a change of the community's level settings does. A member's level changed is
-- `community_id//level/user_id`: it shows on their posts' author cards, and changes no one's unread
-- count or pending posts but theirs.
CREATE OR REPLACE FUNCTION hearth_notify_feed_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND
     (to_jsonb(OLD) - 'likes_count' - 'comments_count' - 'share_count' - 'poll_data' - 'updated_at')
   = (to_jsonb(NEW) - 'likes_count' - 'comments_count' - 'share_count' - 'poll_data' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- Rows go for good with their community or author, many at once: one announcement a community.
    PERFORM pg_notify('hearth_feed', OLD.community_id::text);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM pg_notify('hearth_feed', concat_ws('/', OLD.community_id, OLD.id, 'changed', OLD.author_id));
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('hearth_feed', concat_ws('/', NEW.community_id, NEW.id, 'new', NEW.author_id));
  ELSIF TG_OP = 'UPDATE' AND (NEW.community_id, NEW.author_id) IS DISTINCT FROM (OLD.community_id, OLD.author_id) THEN
    PERFORM pg_notify('hearth_feed', concat_ws('/', NEW.community_id, NEW.id, 'changed', NEW.author_id));
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Hiding a post after reports (hidden_at, migration 0024) changes who sees it: announced too, so no
-- process keeps serving it from its caches (it was dropped only in the process that hid it).
DROP TRIGGER IF EXISTS post_feed_update ON posts;
--> statement-breakpoint
CREATE TRIGGER post_feed_update AFTER UPDATE OF
    content, type, visibility, is_pinned, is_approved, is_edited, deleted_at, hidden_at, category_id, media_urls,
    link_preview, author_id, community_id, created_at
  ON posts FOR EACH ROW EXECUTE FUNCTION hearth_notify_feed_change();
--> statement-breakpoint
-- Migration 0023's function, with the level change announced as `community_id//level/user_id`.
CREATE OR REPLACE FUNCTION hearth_member_points_level() RETURNS trigger AS $$
DECLARE
  c record;
BEGIN
  SELECT level_thresholds, points_per_lesson, points_per_event INTO c FROM communities WHERE id = NEW.community_id;
  IF NOT FOUND THEN RETURN NEW; END IF;
  NEW.points := NEW.like_points + NEW.lessons_completed * c.points_per_lesson + NEW.events_attended * c.points_per_event;
  NEW.level := hearth_level_of(NEW.points, c.level_thresholds);
  IF NEW.level <> (CASE WHEN TG_OP = 'UPDATE' THEN OLD.level ELSE 1 END) THEN
    PERFORM pg_notify('hearth_feed', concat_ws('/', NEW.community_id, '', 'level', NEW.user_id));
  END IF;
  IF NEW.level > NEW.top_level THEN
    NEW.top_level := NEW.level;
    INSERT INTO jobs (queue, payload, singleton_key)
    VALUES ('levels.level_up',
            jsonb_build_object('communityId', NEW.community_id, 'userId', NEW.user_id, 'level', NEW.level),
            'level_up:' || NEW.community_id || ':' || NEW.user_id || ':' || NEW.level)
    ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL DO NOTHING;
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
