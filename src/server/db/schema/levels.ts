import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { JOIN_REQUEST_STATUSES } from "#shared/membership";
import { user } from "./auth";
import { communities } from "./communities";
import { createdAt, textRef, ts, uuidPk, uuidRef } from "./columns";

// Levels and join requests (issue 20, docs/decisions/0016-levels-and-requests.md).

/**
 * A person's points in a community, by source, with the total the community counts and the level
 * it makes. Database triggers move the sources in the same transaction as the like, the lesson
 * completion or the attendance, and recompute `points` and `level` from the community's settings,
 * so they are exact under concurrency (no read-modify-write in the application). Kept when someone
 * leaves (the leaderboard lists current members only).
 */
export const memberPoints = pgTable(
  "member_points",
  {
    communityId: uuidRef("community_id", () => communities.id),
    userId: textRef("user_id", () => user.id),
    /** Likes received on posts and comments here that count (not self, not banned likers). */
    likePoints: integer("like_points").notNull().default(0),
    /** Lessons of this community's courses completed (times points_per_lesson when counted). */
    lessonsCompleted: integer("lessons_completed").notNull().default(0),
    /** Ended occurrences of this community's events they were going to. */
    eventsAttended: integer("events_attended").notNull().default(0),
    /** like_points + lessons × points_per_lesson + events × points_per_event. */
    points: integer("points").notNull().default(0),
    level: smallint("level").notNull().default(1),
    /** The highest level announced to them (a level-up notification goes out once per level). */
    topLevel: smallint("top_level").notNull().default(1),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.communityId, t.userId] }),
    // The all-time leaderboard and the ladder: points descending within a community.
    index("member_points_rank_idx").on(t.communityId, t.points.desc(), t.userId),
    index("member_points_user_idx").on(t.userId),
  ],
);

/** Someone asking to join a community that takes requests, with their answers. */
export const joinRequests = pgTable(
  "join_requests",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    userId: textRef("user_id", () => user.id),
    status: text("status", { enum: JOIN_REQUEST_STATUSES }).notNull().default("pending"),
    /** [{question, answer}] as asked and answered (questions may change later). */
    answers: jsonb("answers").$type<{ question: string; answer: string }[]>().notNull().default([]),
    email: text("email"),
    reason: text("reason"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: ts("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // One pending request per person and community.
    uniqueIndex("join_requests_pending_key")
      .on(t.communityId, t.userId)
      .where(sql`status = 'pending'`),
    // The Admin tab's queue, oldest first, and the count on its badge.
    index("join_requests_queue_idx").on(t.communityId, t.status, t.createdAt, t.id),
    index("join_requests_user_idx").on(t.userId, t.communityId, t.createdAt.desc()),
  ],
);
