import { z } from "zod";
import {
  CALENDAR_MESSAGES as M,
  EDIT_SCOPES,
  EVENT_AUDIENCES,
  EVENT_LIMITS as L,
  EVENT_LOCATION_KINDS,
  MONTHLY_MODES,
  OCCURRENCE_STATUSES,
  RECURRENCE_ENDS,
  RECURRENCE_FREQUENCIES,
  RSVP_CHOICES,
  RSVP_STATUSES,
  WEEKDAYS,
  isHttpUrl,
  isTimeZone,
} from "./calendar";
import { safeName } from "./names";
import { MAX_TIERS } from "./payments";

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A wall-clock date and time (YYYY-MM-DDTHH:mm) that exists on the calendar. */
const localDateTime = z
  .string({ error: M.startRequired })
  .regex(LOCAL_DATE_TIME, M.startInvalid)
  .refine((v) => {
    const d = new Date(`${v}:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 16) === v;
  }, M.startInvalid);

const httpUrl = (message: string) =>
  z.string({ error: message }).trim().max(L.urlMax, message).refine(isHttpUrl, message);

export const recurrenceSchema = z
  .object({
    frequency: z.enum(RECURRENCE_FREQUENCIES),
    interval: z.number().int().min(1).max(L.intervalMax).default(1),
    weekdays: z.array(z.enum(WEEKDAYS)).max(7).default([]),
    monthly_mode: z.enum(MONTHLY_MODES).default("day_of_month"),
    end: z.enum(RECURRENCE_ENDS).default("never"),
    until: z.string().regex(LOCAL_DATE, M.untilRequired).nullable().default(null),
    count: z
      .number({ error: M.countInvalid })
      .int(M.countInvalid)
      .min(1, M.countInvalid)
      .max(L.countMax, M.countInvalid)
      .nullable()
      .default(null),
  })
  .superRefine((r, ctx) => {
    if (r.frequency === "weekly" && r.weekdays.length === 0)
      ctx.addIssue({ code: "custom", path: ["weekdays"], message: M.weekdaysRequired });
    if (r.end === "on_date" && !r.until) ctx.addIssue({ code: "custom", path: ["until"], message: M.untilRequired });
    if (r.end === "after" && r.count == null)
      ctx.addIssue({ code: "custom", path: ["count"], message: M.countInvalid });
  });

/** The fields of an event series (and of one occurrence edited alone). */
const eventFields = {
  title: safeName(
    z
      .string({ error: M.titleRequired })
      .trim()
      .min(1, M.titleRequired)
      .max(L.titleMax, `Title must be at most ${L.titleMax} characters`),
  ),
  description: z.string().trim().max(L.descriptionMax, `Description must be at most ${L.descriptionMax} characters`),
  /** The wall-clock start in `time_zone`; the server turns it into an instant (DST-aware). */
  starts_at_local: localDateTime,
  time_zone: z.string({ error: M.zoneInvalid }).refine(isTimeZone, M.zoneInvalid),
  duration_minutes: z
    .number({ error: M.durationInvalid })
    .int(M.durationInvalid)
    .min(L.durationMinMinutes, M.durationInvalid)
    .max(L.durationMaxMinutes, M.durationInvalid),
  location_kind: z.enum(EVENT_LOCATION_KINDS),
  meeting_url: httpUrl(M.meetingUrlInvalid).nullable(),
  place: z.string().trim().max(L.placeMax).nullable(),
  cover_url: z
    .string()
    .max(500)
    .regex(/^\/media\/[\w./-]+$/, M.coverInvalid)
    .nullable(),
  audience: z.enum(EVENT_AUDIENCES),
  tier_ids: z.array(z.uuid("Unknown tier")).max(MAX_TIERS),
  capacity: z
    .number({ error: M.capacityInvalid })
    .int(M.capacityInvalid)
    .min(1, M.capacityInvalid)
    .max(L.capacityMax, M.capacityInvalid)
    .nullable(),
};

/** Cross-field rules of an event (after defaults): where it happens, who attends. */
function checkEvent(
  v: {
    location_kind?: string;
    meeting_url?: string | null;
    place?: string | null;
    audience?: string;
    tier_ids?: string[];
  },
  ctx: z.RefinementCtx,
) {
  if (v.location_kind === "online" && !v.meeting_url)
    ctx.addIssue({ code: "custom", path: ["meeting_url"], message: M.meetingUrlRequired });
  if (v.location_kind === "place" && !v.place?.trim())
    ctx.addIssue({ code: "custom", path: ["place"], message: M.placeRequired });
  if (v.audience === "tiers" && (v.tier_ids ?? []).length === 0)
    ctx.addIssue({ code: "custom", path: ["tier_ids"], message: M.tiersRequired });
}

/** POST /api/communities/:id/events: a one-off event (recurrence null) or a series. */
export const createEventSchema = z
  .object({
    ...eventFields,
    description: eventFields.description.default(""),
    meeting_url: eventFields.meeting_url.default(null),
    place: eventFields.place.default(null),
    cover_url: eventFields.cover_url.default(null),
    audience: eventFields.audience.default("members"),
    tier_ids: eventFields.tier_ids.default([]),
    capacity: eventFields.capacity.default(null),
    recurrence: recurrenceSchema.nullable().default(null),
  })
  .superRefine(checkEvent);
export type CreateEventInput = z.infer<typeof createEventSchema>;

/**
 * PATCH /api/events/:occurrenceId: only what is sent changes, for the scope chosen. `recurrence` may
 * change only with scope 'all' or 'following'; `recording_url` belongs to the one occurrence.
 */
export const updateEventSchema = z
  .object({
    ...eventFields,
    recurrence: recurrenceSchema.nullable(),
    recording_url: httpUrl(M.recordingUrlInvalid).nullable(),
  })
  .partial()
  .extend({ scope: z.enum(EDIT_SCOPES, { error: M.scopeRequired }).default("one") })
  .strict()
  .superRefine(checkEvent);
export type UpdateEventInput = z.infer<typeof updateEventSchema>;

/** POST /api/events/:occurrenceId/cancel */
export const cancelEventSchema = z.object({ scope: z.enum(EDIT_SCOPES, { error: M.scopeRequired }).default("one") });

/** PUT /api/events/:occurrenceId/rsvp */
export const rsvpSchema = z.object({ status: z.enum(RSVP_CHOICES) });

/** GET /api/communities/:id/events: a range (the month view) or a page of upcoming or past events. */
export const eventListQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  when: z.enum(["upcoming", "past"]).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(L.maxPage).default(L.page),
});

const person = z.object({
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
});

/** One occurrence as the API answers it (list, month view, detail). */
export const occurrenceDto = z.object({
  id: z.string().describe("The occurrence's id: what RSVPs, edits and .ics files name"),
  series_id: z.string(),
  community_id: z.string(),
  title: z.string(),
  description: z.string(),
  starts_at: z.string().describe("ISO instant"),
  ends_at: z.string().describe("ISO instant"),
  time_zone: z.string().describe("The event's own IANA zone"),
  duration_minutes: z.number(),
  location_kind: z.enum(EVENT_LOCATION_KINDS),
  place: z.string().nullable(),
  meeting_url: z
    .string()
    .nullable()
    .describe("Only for those who may attend, from 15 minutes before the start until the end; null otherwise"),
  has_meeting_link: z.boolean().describe("Whether the event has an online link (shown later)"),
  cover_url: z.string().nullable(),
  audience: z.enum(EVENT_AUDIENCES),
  tier_ids: z.array(z.string()),
  capacity: z.number().nullable(),
  going_count: z.number(),
  waitlist_count: z.number(),
  status: z.enum(OCCURRENCE_STATUSES),
  recording_url: z.string().nullable(),
  recurring: z.boolean(),
  /** The series' rule (for the edit form); null for a one-off event. */
  recurrence: recurrenceSchema.nullable(),
  /** The series' first wall-clock start, for the edit form of 'all'. */
  starts_at_local: z.string().describe("This occurrence's wall-clock start in time_zone (YYYY-MM-DDTHH:mm)"),
  viewer: z.object({
    may_attend: z.boolean(),
    may_manage: z.boolean(),
    rsvp: z.enum(RSVP_STATUSES).nullable(),
    waitlist_position: z.number().nullable().describe("1 for the first in line"),
  }),
});
export type OccurrenceDto = z.infer<typeof occurrenceDto>;

export const occurrencePage = z.object({
  items: z.array(occurrenceDto),
  next_cursor: z.string().nullable(),
});

export const rsvpResult = z.object({
  rsvp: z.enum(RSVP_STATUSES),
  waitlist_position: z.number().nullable(),
  going_count: z.number(),
  waitlist_count: z.number(),
});

export const attendeesDto = z.object({
  going: z.array(person),
  waitlist_count: z.number(),
  next_cursor: z.string().nullable(),
});

export const calendarFeedDto = z.object({
  url: z.string().nullable().describe("The person's private feed URL; null when they have none"),
  created_at: z.string().nullable(),
});

/** GET /api/communities/:id/calendar: the month grid's range (at most EVENT_LIMITS.rangeMaxDays). */
export const calendarMonthQuery = z.object({
  from: z.iso.datetime({ offset: true, error: "Choose the start of the range" }),
  to: z.iso.datetime({ offset: true, error: "Choose the end of the range" }),
  /** The zone whose days the range is cut into (the viewer's); UTC by default. */
  tz: z.string().max(64).refine(isTimeZone, M.zoneInvalid).default("UTC"),
  /** At most this many occurrences a day, the soonest; the rest are counted in `more`. */
  per_day: z.coerce.number().int().min(1).max(L.perDayMax).default(L.perDayMax),
});

/** One occurrence as the month grid shows it: what a day cell needs; the rest comes with the detail. */
export const calendarMonthItem = z.object({
  id: z.string(),
  series_id: z.string(),
  title: z.string(),
  starts_at: z.string().describe("ISO instant"),
  ends_at: z.string().describe("ISO instant"),
  status: z.enum(OCCURRENCE_STATUSES),
});
export type CalendarMonthItem = z.infer<typeof calendarMonthItem>;

export const calendarMonthDto = z.object({
  items: z.array(calendarMonthItem),
  more: z
    .array(z.object({ day: z.string().describe("YYYY-MM-DD in tz"), count: z.number() }))
    .describe("Days with more occurrences than per_day, and how many were left out"),
});
