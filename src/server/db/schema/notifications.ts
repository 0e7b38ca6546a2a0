import { sql } from "drizzle-orm";
import { bigserial, boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { NOTIFICATION_TYPES } from "#shared/notifications";
import { user } from "./auth";
import { createdAt, textRef, ts, uuidPk } from "./columns";
import { communities } from "./communities";

export const notifications = pgTable(
  "notifications",
  {
    id: uuidPk(),
    userId: textRef("user_id", () => user.id),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    data: jsonb("data").$type<{ post_id?: string; [k: string]: unknown }>().notNull().default({}),
    /** Shown in the bell and the list; false when the recipient turned in-app off but email on. */
    inApp: boolean("in_app").notNull().default(true),
    isRead: boolean("is_read").notNull().default(false),
    readAt: ts("read_at"),
    emailedAt: ts("emailed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("notifications_unread_idx")
      .on(t.userId)
      .where(sql`is_read = false`),
    // One like notification per liker and post, however often the like is toggled.
    uniqueIndex("notifications_like_once")
      .on(t.userId, t.actorId, sql`(data->>'post_id')`)
      .where(sql`type = 'post_like'`),
  ],
);

/** Bounded backlog of realtime events, replayed to clients reconnecting with Last-Event-ID. */
export const realtimeEvents = pgTable(
  "realtime_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    channel: text("channel").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("realtime_events_channel_idx").on(t.channel, t.id)],
);
