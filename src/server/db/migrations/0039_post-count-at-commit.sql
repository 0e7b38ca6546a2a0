-- A community's post_count is kept by the database, at commit (issue 23, item 4; decision 0031).
-- The app used to add 1 to the community's row inside each new post's transaction. The row stayed
-- locked from that update until the commit ended, across a round trip to a busy app process, so a
-- community's new posts committed one after another (the update waited 51-87 ms on average at 50
-- connections). These triggers are deferred: each runs inside COMMIT, so a post holds the row only
-- for the update and the commit's WAL flush.
--
-- The rule is the one the counter checks use: a post counts when it is approved and not deleted.
-- Every change of that (a new post, approval, soft or hard delete, a move) moves the count by one,
-- whatever path made it, as member_count is kept (migration 0002). A bulk load of many rows in one
-- transaction (the benchmark data sets) disables posts_count_insert and sets the counts itself.
CREATE OR REPLACE FUNCTION hearth_post_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.is_approved AND OLD.deleted_at IS NULL THEN
    UPDATE communities SET post_count = GREATEST(post_count - 1, 0) WHERE id = OLD.community_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.is_approved AND NEW.deleted_at IS NULL THEN
    UPDATE communities SET post_count = post_count + 1 WHERE id = NEW.community_id;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER posts_count_insert AFTER INSERT ON posts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.is_approved AND NEW.deleted_at IS NULL)
  EXECUTE FUNCTION hearth_post_count();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER posts_count_update AFTER UPDATE OF is_approved, deleted_at, community_id ON posts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.is_approved AND OLD.deleted_at IS NULL) IS DISTINCT FROM (NEW.is_approved AND NEW.deleted_at IS NULL)
        OR (OLD.community_id IS DISTINCT FROM NEW.community_id AND NEW.is_approved AND NEW.deleted_at IS NULL))
  EXECUTE FUNCTION hearth_post_count();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER posts_count_delete AFTER DELETE ON posts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.is_approved AND OLD.deleted_at IS NULL)
  EXECUTE FUNCTION hearth_post_count();
