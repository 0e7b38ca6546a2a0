import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { createdAt, ts, uuidPk } from "./columns";
import { communities } from "./communities";
import { courseLessons, courses } from "./courses";
import { posts } from "./posts";

/**
 * Durable job queue: work that must happen later (mail, image variants, digests) lives here, not in
 * memory (lib/jobs.ts). A job is pending until done_at (done) or dead_at (dead: it used up its
 * attempts, kept with its last error for inspection); status says which.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    runAt: ts("run_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    lockedUntil: ts("locked_until"),
    lastError: text("last_error"),
    doneAt: ts("done_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** At most one pending job per key (jobs_singleton_key): enqueueing another is a no-op. */
    singletonKey: text("singleton_key"),
    /** Pending jobs with one group key are claimed together (JobWorker.setBatch): a payment event's subscription. */
    groupKey: text("group_key"),
    /** When the job used up its attempts (or its last lease ran out): a dead letter. */
    deadAt: ts("dead_at"),
    status: text("status", { enum: ["pending", "done", "dead"] }).generatedAlwaysAs(
      sql`CASE WHEN done_at IS NOT NULL THEN 'done' WHEN dead_at IS NOT NULL THEN 'dead' ELSE 'pending' END`,
    ),
  },
  (t) => [
    /** The claim's scan: pending jobs in run_at order, up to now (lib/jobs.ts). */
    index("jobs_due_idx")
      .on(t.runAt)
      .where(sql`done_at IS NULL AND dead_at IS NULL`),
    /** A claim's group mates (lib/jobs.ts). */
    index("jobs_group_key_idx")
      .on(t.groupKey)
      .where(sql`group_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL`),
    uniqueIndex("jobs_singleton_key")
      .on(t.singletonKey)
      .where(sql`singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL`),
  ],
);

/** Recurring schedules (lib/jobs.ts): the last slot each one enqueued, so each slot runs once across processes. */
export const jobSchedules = pgTable("job_schedules", {
  name: text("name").primaryKey(),
  lastSlotAt: ts("last_slot_at").notNull(),
});

/** Every message the product sends; the local outbox shown at /dev/mailbox when SMTP is not configured. */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: uuidPk(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on digests). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    status: text("status", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    transport: text("transport", { enum: ["outbox", "smtp"] }).notNull(),
    error: text("error"),
    createdAt: createdAt(),
    sentAt: ts("sent_at"),
  },
  (t) => [index("mail_messages_created_idx").on(t.createdAt.desc().nullsFirst())],
);

/** Fixed-window counters for rate limits, shared by every app process. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Files the product stores (avatars, icons, covers, post and course media). */
export const mediaFiles = pgTable(
  "media_files",
  {
    id: uuidPk(),
    key: text("key").notNull().unique(),
    ownerId: text("owner_id").references(() => user.id, { onDelete: "set null" }),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    purpose: text("purpose", {
      enum: ["avatar", "icon", "cover", "post", "course", "lesson", "personal"],
    }).notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    variants: jsonb("variants").$type<Record<string, string>>().notNull().default({}),
    originalName: text("original_name"),
    /**
     * pending: a direct upload was announced and not yet checked; processing: image variants are
     * being made; ready: served. Only ready files are ever served.
     */
    status: text("status", { enum: ["pending", "processing", "ready"] })
      .notNull()
      .default("ready"),
    /** What the file belongs to: deleting the post or lesson deletes the row, and a trigger queues the files' removal. */
    postId: uuid("post_id").references(() => posts.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id").references(() => courseLessons.id, { onDelete: "cascade" }),
    /** A course's thumbnail. */
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("media_files_owner_idx").on(t.ownerId),
    index("media_files_community_idx").on(t.communityId),
    index("media_files_post_idx")
      .on(t.postId)
      .where(sql`post_id IS NOT NULL`),
    index("media_files_lesson_idx")
      .on(t.lessonId)
      .where(sql`lesson_id IS NOT NULL`),
    index("media_files_course_idx")
      .on(t.courseId)
      .where(sql`course_id IS NOT NULL`),
    index("media_files_unfinished_idx")
      .on(t.createdAt)
      .where(sql`status <> 'ready'`),
  ],
);
