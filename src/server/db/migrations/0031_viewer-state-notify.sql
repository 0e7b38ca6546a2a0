-- The viewer state cache (src/server/features/posts/posts.feed.ts, issue 23): each process keeps a
-- signed-in reader's like, save and vote of the feed pages they read. Every change to them is
-- announced on hearth_viewer as `user_id.post_id`, which drops that reader's entries in every
-- process and has each process read the post's counters afresh for pages made before it: a like or
-- unlike, a save or unsave, a vote. Rows removed because their post was deleted are not announced
-- (the post leaves every page, announced on hearth_feed); rows removed with a deleted user concern
-- no one who can still read. One statement announces each pair once, however many rows.
CREATE OR REPLACE FUNCTION hearth_notify_viewer_insert() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_viewer', u || '.' || p) FROM (SELECT DISTINCT user_id AS u, post_id AS p FROM changed) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_viewer_delete() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_viewer', u || '.' || p)
     FROM (SELECT DISTINCT c.user_id AS u, c.post_id AS p FROM changed c
            WHERE EXISTS (SELECT 1 FROM posts WHERE posts.id = c.post_id)) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_likes_viewer_insert AFTER INSERT ON post_likes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_insert();
--> statement-breakpoint
CREATE TRIGGER post_likes_viewer_delete AFTER DELETE ON post_likes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_delete();
--> statement-breakpoint
CREATE TRIGGER saved_posts_viewer_insert AFTER INSERT ON saved_posts
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_insert();
--> statement-breakpoint
CREATE TRIGGER saved_posts_viewer_delete AFTER DELETE ON saved_posts
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_delete();
--> statement-breakpoint
CREATE TRIGGER poll_votes_viewer_insert AFTER INSERT ON poll_votes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_insert();
--> statement-breakpoint
CREATE TRIGGER poll_votes_viewer_delete AFTER DELETE ON poll_votes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_viewer_update() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_viewer', u || '.' || p)
     FROM (SELECT user_id AS u, post_id AS p FROM new_rows UNION SELECT user_id, post_id FROM old_rows) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_likes_viewer_update AFTER UPDATE ON post_likes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_update();
--> statement-breakpoint
CREATE TRIGGER saved_posts_viewer_update AFTER UPDATE ON saved_posts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_update();
--> statement-breakpoint
CREATE TRIGGER poll_votes_viewer_update AFTER UPDATE ON poll_votes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_viewer_update();
