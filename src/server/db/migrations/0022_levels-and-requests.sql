CREATE TABLE "join_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"community_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"email" text,
	"reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_points" (
	"community_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"like_points" integer DEFAULT 0 NOT NULL,
	"lessons_completed" integer DEFAULT 0 NOT NULL,
	"events_attended" integer DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"level" smallint DEFAULT 1 NOT NULL,
	"top_level" smallint DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_points_community_id_user_id_pk" PRIMARY KEY("community_id","user_id")
);
--> statement-breakpoint
DROP INDEX "communities_directory_idx";--> statement-breakpoint
DROP INDEX "communities_category_directory_idx";--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "level_names" text[];--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "level_thresholds" integer[] DEFAULT '{0,5,20,65,155,515,2015,8015,33015}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "points_per_lesson" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "points_per_event" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "min_post_level" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "join_policy" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "request_questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "request_ask_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "auto_approve" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "request_cooldown_days" smallint DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "unlock_level" smallint;--> statement-breakpoint
ALTER TABLE "event_occurrences" ADD COLUMN "attendance_counted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_points" ADD CONSTRAINT "member_points_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_points" ADD CONSTRAINT "member_points_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "join_requests_pending_key" ON "join_requests" USING btree ("community_id","user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "join_requests_queue_idx" ON "join_requests" USING btree ("community_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "join_requests_user_idx" ON "join_requests" USING btree ("user_id","community_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_points_rank_idx" ON "member_points" USING btree ("community_id","points" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "member_points_user_idx" ON "member_points" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "communities_directory_idx" ON "communities" USING btree ("member_count" DESC NULLS FIRST,"id") WHERE ("communities"."visibility" = 'public' OR "communities"."listed");--> statement-breakpoint
CREATE INDEX "communities_category_directory_idx" ON "communities" USING btree ("category","member_count" DESC NULLS FIRST,"id") WHERE ("communities"."visibility" = 'public' OR "communities"."listed");--> statement-breakpoint
-- Today's private communities were invite only; public ones stay open.
UPDATE "communities" SET "join_policy" = 'invite' WHERE "visibility" = 'private';
