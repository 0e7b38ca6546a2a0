ALTER TABLE "creator_plans" ADD COLUMN "community_id" uuid;--> statement-breakpoint
ALTER TABLE "creator_plans" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "creator_plans" ADD CONSTRAINT "creator_plans_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE set null ON UPDATE no action;