CREATE INDEX "posts_pending_idx" ON "posts" USING btree ("community_id","created_at") WHERE NOT "posts"."is_approved" AND "posts"."deleted_at" IS NULL;--> statement-breakpoint
-- likes_count on posts and comments moves with the like rows themselves, in the same transaction,
-- whatever path adds or removes them (toggles, cascades): counters equal COUNT(*) under any concurrency.
CREATE OR REPLACE FUNCTION hearth_post_likes_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE posts SET likes_count = likes_count + 1 WHERE id = NEW.post_id;
  ELSE
    UPDATE posts SET likes_count = GREATEST(likes_count - 1, 0) WHERE id = OLD.post_id;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_likes_count AFTER INSERT OR DELETE ON post_likes FOR EACH ROW EXECUTE FUNCTION hearth_post_likes_count();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_comment_likes_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE comments SET likes_count = likes_count + 1 WHERE id = NEW.comment_id;
  ELSE
    UPDATE comments SET likes_count = GREATEST(likes_count - 1, 0) WHERE id = OLD.comment_id;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comment_likes_count AFTER INSERT OR DELETE ON comment_likes FOR EACH ROW EXECUTE FUNCTION hearth_comment_likes_count();
