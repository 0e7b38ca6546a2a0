-- Scheduled work (issue 17, item 7; decision 0012): singleton keys (at most one pending job per
-- key, enqueueing another is a no-op: the partial unique index), dead letters (a job that used up its
-- attempts keeps its row and last error, with dead_at set; status says pending, done or dead), and
-- recurring schedules (job_schedules: the last slot each schedule enqueued, so that each slot is
-- enqueued once however many processes run jobs).
CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"last_slot_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "singleton_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "dead_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "status" text GENERATED ALWAYS AS (CASE WHEN done_at IS NOT NULL THEN 'done' WHEN dead_at IS NOT NULL THEN 'dead' ELSE 'pending' END) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_key" ON "jobs" USING btree ("singleton_key") WHERE singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL;
