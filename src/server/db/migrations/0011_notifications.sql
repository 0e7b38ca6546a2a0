ALTER TABLE "mail_messages" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "in_app" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD COLUMN "digest_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD COLUMN "last_digest_at" timestamp with time zone;--> statement-breakpoint
-- Keep the newest of any repeated like notifications before the index forbids them.
DELETE FROM "notifications" a USING "notifications" b
 WHERE a.type = 'post_like' AND b.type = 'post_like' AND a.user_id = b.user_id AND a.actor_id = b.actor_id
   AND a.data->>'post_id' = b.data->>'post_id' AND (a.created_at, a.id) < (b.created_at, b.id);--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_like_once" ON "notifications" USING btree ("user_id","actor_id",(data->>'post_id')) WHERE type = 'post_like';