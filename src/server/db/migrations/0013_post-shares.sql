CREATE TABLE "post_shares" (
	"post_id" uuid NOT NULL,
	"sharer" text NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_shares_post_id_sharer_pk" PRIMARY KEY("post_id","sharer")
);
--> statement-breakpoint
ALTER TABLE "post_shares" ADD CONSTRAINT "post_shares_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_shares" ADD CONSTRAINT "post_shares_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_shares_user_idx" ON "post_shares" USING btree ("user_id");--> statement-breakpoint
-- share_count moves with the share rows, in the same transaction, like likes_count: a repeated
-- share finds its row and adds nothing. Shares counted before this table have no rows, so the
-- count may be above COUNT(*) for older posts, never below (GREATEST keeps it at 0 or more).
CREATE OR REPLACE FUNCTION hearth_post_shares_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE posts SET share_count = share_count + 1 WHERE id = NEW.post_id;
  ELSE
    UPDATE posts SET share_count = GREATEST(share_count - 1, 0) WHERE id = OLD.post_id;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_shares_count AFTER INSERT OR DELETE ON post_shares FOR EACH ROW EXECUTE FUNCTION hearth_post_shares_count();
