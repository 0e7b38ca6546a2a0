CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "communities_directory_idx";--> statement-breakpoint
DROP INDEX "communities_category_directory_idx";--> statement-breakpoint
CREATE INDEX "communities_search_idx" ON "communities" USING gin (("name" || ' ' || "description") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "community_members_joined_idx" ON "community_members" USING btree ("community_id","joined_at","user_id");--> statement-breakpoint
CREATE INDEX "communities_directory_idx" ON "communities" USING btree ("member_count" DESC NULLS FIRST,"id") WHERE "communities"."visibility" = 'public';--> statement-breakpoint
CREATE INDEX "communities_category_directory_idx" ON "communities" USING btree ("category","member_count" DESC NULLS FIRST,"id") WHERE "communities"."visibility" = 'public';--> statement-breakpoint
-- member_count is kept by the database itself: every path that adds or removes a member row (join,
-- leave, invite, removal, an account deleted by cascade) moves the counter in the same transaction.
CREATE OR REPLACE FUNCTION hearth_member_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE communities SET member_count = member_count + 1 WHERE id = NEW.community_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE communities SET member_count = GREATEST(member_count - 1, 0) WHERE id = OLD.community_id;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_member_count AFTER INSERT OR DELETE ON community_members FOR EACH ROW EXECUTE FUNCTION hearth_member_count();
