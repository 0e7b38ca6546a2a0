ALTER TABLE "media_files" ADD COLUMN "course_id" uuid;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_files_course_idx" ON "media_files" USING btree ("course_id") WHERE course_id IS NOT NULL;--> statement-breakpoint
-- Thumbnails of existing courses belong to their course from now on.
UPDATE media_files f
   SET course_id = c.id
  FROM courses c
 WHERE f.course_id IS NULL
   AND f.community_id = c.community_id
   AND c.thumbnail_url IN ('/media/' || f.key, '/media/' || (f.variants ->> 'medium'), '/media/' || (f.variants ->> 'thumbnail'));
