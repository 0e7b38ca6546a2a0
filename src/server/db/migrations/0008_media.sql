ALTER TABLE "media_files" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_files" ADD COLUMN "post_id" uuid;--> statement-breakpoint
ALTER TABLE "media_files" ADD COLUMN "lesson_id" uuid;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_lesson_id_course_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."course_lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_files_post_idx" ON "media_files" USING btree ("post_id") WHERE post_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "media_files_lesson_idx" ON "media_files" USING btree ("lesson_id") WHERE lesson_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "media_files_unfinished_idx" ON "media_files" USING btree ("created_at") WHERE status <> 'ready';--> statement-breakpoint
-- Files leave storage through the durable job queue whenever their rows go, by any path: a post or
-- lesson deleted, a community deleted (cascade), an avatar replaced, or a DELETE by hand. One job per
-- 500 keys, so a community with many files does not make one huge payload.
CREATE OR REPLACE FUNCTION hearth_media_files_deleted() RETURNS trigger AS $$
BEGIN
  INSERT INTO jobs (queue, payload)
  SELECT 'media.delete', jsonb_build_object('keys', jsonb_agg(k))
    FROM (
      SELECT k, (row_number() OVER () - 1) / 500 AS chunk
        FROM (
          SELECT o.key AS k FROM old_rows o
          UNION ALL
          SELECT v.value FROM old_rows o, jsonb_each_text(o.variants) v
        ) keys
    ) numbered
   GROUP BY chunk;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER media_files_deleted AFTER DELETE ON media_files
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_media_files_deleted();
--> statement-breakpoint
-- A deleted community's folders go too, including files no row tracked (demo content).
CREATE OR REPLACE FUNCTION hearth_communities_deleted() RETURNS trigger AS $$
BEGIN
  INSERT INTO jobs (queue, payload)
  SELECT 'media.delete', jsonb_build_object('prefixes', jsonb_agg('community-assets/' || o.id::text))
    FROM old_rows o
  HAVING count(*) > 0;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER communities_deleted_media AFTER DELETE ON communities
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_communities_deleted();
