-- The feed-change trigger fires only for updates that touch what a feed page shows, not for the
-- counter updates of every like, comment or vote (those ran the row comparison of 0006 each time).
DROP TRIGGER IF EXISTS post_feed_change ON posts;
--> statement-breakpoint
CREATE TRIGGER post_feed_change AFTER INSERT OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION hearth_notify_feed_change();
--> statement-breakpoint
CREATE TRIGGER post_feed_update AFTER UPDATE OF
    content, type, visibility, is_pinned, is_approved, is_edited, deleted_at, category_id, media_urls,
    link_preview, author_id, community_id, created_at
  ON posts FOR EACH ROW EXECUTE FUNCTION hearth_notify_feed_change();
