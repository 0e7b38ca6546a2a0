/**
 * Calendar and events (issue 19): the enums, limits, messages and time rules both sides use. Zod-free,
 * so the web bundle takes only what it reads; the request and response schemas are in calendar.schemas.ts.
 */

/** Who may attend (and see the meeting link): every member, members of chosen tiers, or admins only. */
export const EVENT_AUDIENCES = ["members", "tiers", "admins"] as const;
export type EventAudience = (typeof EVENT_AUDIENCES)[number];

export const EVENT_AUDIENCE_LABELS: Record<EventAudience, string> = {
  members: "All members",
  tiers: "Chosen tiers",
  admins: "Admins only",
};

/** Where it happens: an online meeting link, or a place. */
export const EVENT_LOCATION_KINDS = ["online", "place"] as const;
export type EventLocationKind = (typeof EVENT_LOCATION_KINDS)[number];

export const RECURRENCE_FREQUENCIES = ["daily", "weekly", "monthly"] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

/** A monthly event repeats on the same day of the month (the 14th) or the same nth weekday (the 2nd Tuesday; -1: the last). */
export const MONTHLY_MODES = ["day_of_month", "nth_weekday"] as const;
export type MonthlyMode = (typeof MONTHLY_MODES)[number];

export const RECURRENCE_ENDS = ["never", "on_date", "after"] as const;
export type RecurrenceEnd = (typeof RECURRENCE_ENDS)[number];

/** RFC 5545 weekday codes, Monday first (the order the form shows them). */
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  MO: "Mon",
  TU: "Tue",
  WE: "Wed",
  TH: "Thu",
  FR: "Fri",
  SA: "Sat",
  SU: "Sun",
};

/** How a recurring event repeats; null on an event that happens once. */
export type Recurrence = {
  frequency: RecurrenceFrequency;
  /** Every N days, weeks or months. */
  interval: number;
  /** Weekly: the weekdays it happens on (at least one). Ignored otherwise. */
  weekdays: Weekday[];
  /** Monthly: which day of each month. Ignored otherwise. */
  monthly_mode: MonthlyMode;
  end: RecurrenceEnd;
  /** end 'on_date': the last day (YYYY-MM-DD, in the event's zone) an occurrence may start on. */
  until: string | null;
  /** end 'after': how many times it happens in all. */
  count: number | null;
};

/** Editing or cancelling an occurrence of a series: only it, it and every later one, or the whole series. */
export const EDIT_SCOPES = ["one", "following", "all"] as const;
export type EditScope = (typeof EDIT_SCOPES)[number];

export const EDIT_SCOPE_LABELS: Record<EditScope, string> = {
  one: "This event",
  following: "This and following events",
  all: "All events",
};

/** A person's answer for one occurrence; 'waitlisted' is given by the server when the event is full. */
export const RSVP_STATUSES = ["going", "waitlisted", "not_going"] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];
/** What a person may ask for: going (waitlisted if full) or not going. */
export const RSVP_CHOICES = ["going", "not_going"] as const;
export type RsvpChoice = (typeof RSVP_CHOICES)[number];

export const OCCURRENCE_STATUSES = ["scheduled", "cancelled"] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

/** Where an occurrence stands at a moment: before its start, running, or over. */
export type EventPhase = "upcoming" | "live" | "past";

export const EVENT_LIMITS = {
  titleMax: 120,
  descriptionMax: 5000,
  placeMax: 300,
  urlMax: 2000,
  durationMinMinutes: 5,
  durationMaxMinutes: 24 * 60,
  capacityMax: 100_000,
  intervalMax: 12,
  /** end 'after': at most this many times. */
  countMax: 1000,
  /** A rule producing more occurrences than this in its first year is refused (issue 19). */
  occurrencesPerYearMax: 1000,
  /** Occurrences of a series are kept in the database this far ahead; a daily job extends them. */
  horizonDays: 400,
  /** The meeting link is shown to those who may attend from this long before the start. */
  linkRevealMinutes: 15,
  /** Reminders to those going, this many minutes before the start (24 hours, 1 hour). */
  reminderMinutes: [24 * 60, 60] as const,
  /** A month view asks for at most this many days at once (six weeks and a little). */
  rangeMaxDays: 45,
  /** A day of the month grid shows this many occurrences, then '+N more'… */
  gridPerDay: 3,
  /** …and a day asked for alone at most this many. */
  perDayMax: 200,
  /** A page of the upcoming or past list, and of the attendee list. */
  page: 20,
  maxPage: 100,
} as const;

/** What the form and the API say about bad input (shown next to the field). */
export const CALENDAR_MESSAGES = {
  titleRequired: "Give the event a title",
  startRequired: "Choose when the event starts",
  startInvalid: "Choose a valid date and time",
  zoneInvalid: "Choose a valid time zone",
  durationInvalid: `Duration must be between ${EVENT_LIMITS.durationMinMinutes} minutes and 24 hours`,
  meetingUrlRequired: "Add the meeting link",
  meetingUrlInvalid: "Meeting links must start with http:// or https://",
  placeRequired: "Say where the event takes place",
  tiersRequired: "Choose at least one tier",
  capacityInvalid: `Capacity must be a whole number from 1 to ${EVENT_LIMITS.capacityMax.toLocaleString("en-US")}`,
  capacityBelowGoing: (going: number) =>
    `Capacity can't be below the ${going} ${going === 1 ? "person" : "people"} already going`,
  weekdaysRequired: "Choose at least one day of the week",
  untilBeforeStart: "The repeat must end on or after the first event",
  untilRequired: "Choose the last date",
  countInvalid: `Repeat between 1 and ${EVENT_LIMITS.countMax} times`,
  tooManyOccurrences: `This repeats more than ${EVENT_LIMITS.occurrencesPerYearMax.toLocaleString("en-US")} times in a year`,
  recordingUrlInvalid: "Recording links must start with http:// or https://",
  coverInvalid: "Covers must be uploaded to Hearth",
  scopeRequired: "Choose which events to change",
  notFound: "Event not found",
  cancelled: "This event was cancelled",
  ended: "This event has ended",
  notInvited: "This event is open to other members only",
  forbidden: "Only the community's owner and admins can manage events",
  feedNotFound: "Calendar feed not found",
  calendarOff: "This community has no calendar",
} as const;

const ZONES_SEEN = new Map<string, boolean>();

/** Whether a zone is an IANA time zone this runtime knows (the check both sides make). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  const known = ZONES_SEEN.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  // Building a formatter costs more than the rest of a month-grid request: answers are kept (a
  // zone's validity does not change while the process runs), up to a bound against made-up names.
  if (ZONES_SEEN.size >= 2_000) ZONES_SEEN.clear();
  ZONES_SEEN.set(zone, valid);
  return valid;
}

/** Where an occurrence stands at `now` (ms since the epoch). */
export function eventPhase(startsAt: number, endsAt: number, now: number): EventPhase {
  if (now < startsAt) return "upcoming";
  return now < endsAt ? "live" : "past";
}

/** Whether the meeting link may be shown yet: from 15 minutes before the start until the end. */
export function meetingLinkOpen(startsAt: number, endsAt: number, now: number): boolean {
  return now >= startsAt - EVENT_LIMITS.linkRevealMinutes * 60_000 && now < endsAt;
}

/** The http(s) rule for meeting and recording links (no javascript:, data: or other schemes). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The Google Calendar "add event" link for an occurrence (times in UTC, as Google expects). */
export function googleCalendarUrl(e: {
  title: string;
  description: string;
  starts_at: string;
  ends_at: string;
  location: string | null;
}): string {
  const stamp = (iso: string) =>
    new Date(iso)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: e.title,
    dates: `${stamp(e.starts_at)}/${stamp(e.ends_at)}`,
    details: e.description.slice(0, 1500),
  });
  if (e.location) params.set("location", e.location);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** The path of a person's calendar feed, from its secret token (the server prefixes its public origin). */
export const calendarFeedPath = (token: string) => `/calendar/${encodeURIComponent(token)}.ics`;
