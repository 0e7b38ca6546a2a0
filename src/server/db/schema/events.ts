import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  EVENT_AUDIENCES,
  EVENT_LOCATION_KINDS,
  OCCURRENCE_STATUSES,
  RSVP_STATUSES,
  type Recurrence,
} from "#shared/calendar";
import { user } from "./auth";
import { communities } from "./communities";
import { createdAt, textRef, timestamps, ts, uuidPk, uuidRef } from "./columns";

// Calendar and events (issue 19, docs/decisions/0015-calendar.md). A series holds the rule; its
// occurrences are rows, generated up to a horizon a daily job extends, so the month view, the feed,
// RSVPs and reminders are plain indexed reads. An occurrence copies the series' fields when it is
// generated; one edited alone is `overridden` and later edits of the series leave it be.

/** The fields an event shows, on a series and copied onto each of its occurrences. */
const eventColumns = () => ({
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  /** The event's IANA zone: its wall-clock time stays the same across daylight-saving changes there. */
  timeZone: text("time_zone").notNull(),
  durationMinutes: integer("duration_minutes").notNull(),
  locationKind: text("location_kind", { enum: EVENT_LOCATION_KINDS }).notNull(),
  meetingUrl: text("meeting_url"),
  place: text("place"),
  coverUrl: text("cover_url"),
  audience: text("audience", { enum: EVENT_AUDIENCES }).notNull().default("members"),
  tierIds: uuid("tier_ids").array().notNull().default([]),
  capacity: integer("capacity"),
});

export const eventSeries = pgTable(
  "event_series",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    ...eventColumns(),
    /** The first occurrence's wall-clock start in time_zone, 'YYYY-MM-DDTHH:mm' (the rule's anchor). */
    startsLocal: text("starts_local").notNull(),
    /** How it repeats; null for a one-off event. */
    recurrence: jsonb("recurrence").$type<Recurrence | null>(),
    /** Occurrences exist up to this instant (the horizon; null: all of them exist, the rule ends). */
    generatedUntil: ts("generated_until"),
    ...timestamps(),
  },
  (t) => [
    index("event_series_community_idx").on(t.communityId),
    index("event_series_horizon_idx")
      .on(t.generatedUntil)
      .where(sql`generated_until IS NOT NULL`),
  ],
);

export const eventOccurrences = pgTable(
  "event_occurrences",
  {
    id: uuidPk(),
    seriesId: uuidRef("series_id", () => eventSeries.id),
    communityId: uuidRef("community_id", () => communities.id),
    /** The start the rule gave this occurrence: its identity within the series, kept when it moves. */
    slotAt: ts("slot_at").notNull(),
    startsAt: ts("starts_at").notNull(),
    endsAt: ts("ends_at").notNull(),
    ...eventColumns(),
    status: text("status", { enum: OCCURRENCE_STATUSES }).notNull().default("scheduled"),
    /** When the members going were credited an attended event (issue 20: points per event). */
    attendanceCountedAt: ts("attendance_counted_at"),
    /** Edited on its own ('this event'): edits of the whole series no longer overwrite it. */
    overridden: boolean("overridden").notNull().default(false),
    recordingUrl: text("recording_url"),
    /** Kept by the RSVP statements in the same transaction as the rows they count. */
    goingCount: integer("going_count").notNull().default(0),
    waitlistCount: integer("waitlist_count").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("event_occurrences_slot_key").on(t.seriesId, t.slotAt),
    index("event_occurrences_community_idx").on(t.communityId, t.startsAt),
    index("event_occurrences_ends_idx").on(t.communityId, t.endsAt),
    index("event_occurrences_scheduled_idx")
      .on(t.startsAt)
      .where(sql`status = 'scheduled'`),
  ],
);

export const eventRsvps = pgTable(
  "event_rsvps",
  {
    occurrenceId: uuidRef("occurrence_id", () => eventOccurrences.id),
    userId: textRef("user_id", () => user.id),
    status: text("status", { enum: RSVP_STATUSES }).notNull(),
    /** Waitlist order: taken from a sequence each time someone joins the line (first in, first up). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.occurrenceId, t.userId] }),
    index("event_rsvps_status_idx").on(t.occurrenceId, t.status, t.seq),
    index("event_rsvps_user_idx").on(t.userId),
  ],
);

/** One row per reminder sent: the claim that makes each reminder go out once across processes and restarts. */
export const eventReminders = pgTable(
  "event_reminders",
  {
    occurrenceId: uuidRef("occurrence_id", () => eventOccurrences.id),
    userId: textRef("user_id", () => user.id),
    /** Minutes before the start: 1440 or 60. */
    minutesBefore: integer("minutes_before").notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.occurrenceId, t.userId, t.minutesBefore] })],
);

/** A person's private calendar feed: the secret in its URL. Revoking deletes the row; a new one gets a new token. */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: textRef("user_id", () => user.id).primaryKey(),
  token: text("token").notNull().unique(),
  createdAt: createdAt(),
});
