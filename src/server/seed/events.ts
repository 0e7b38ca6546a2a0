import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Recurrence, Weekday } from "#shared/calendar";
import { WEEKDAYS } from "#shared/calendar";
import { eventRsvps, eventSeries } from "#server/db/schema/index";
import { COPIED_COLUMNS } from "#server/features/events/occurrences";
import { expandSeries, nextSlot } from "#server/features/events/recurrence";
import { prng } from "./art";
import { insertMany, type DemoAccount, type SeededCommunity, type Tx } from "./communities";

/*
 * Demo events (issue 19). Every demo community that shows its calendar (and is not still being set
 * up) gets a weekly Q&A call at 17:00 on a weekday in a real zone, a monthly workshop on the nth
 * weekday (90 minutes, limited seats) and two or three past one-off sessions with their recordings.
 * The series start weeks or months before the seed, so the Calendar tab has both past and upcoming
 * occurrences on any day the demo is started; the slots come from the event service's own rule
 * expansion (generated_until set, so the daily horizon job extends them). Some members are going to
 * the next call and workshop; in the largest communities the workshop is full with a short waitlist.
 */

const DAY = 86_400_000;
/** How far ahead the seed makes a series' occurrences (the horizon job takes them to EVENT_LIMITS.horizonDays). */
const GENERATE_DAYS = 120;

/** The zones the demo's communities meet in (by position in the directory). */
const ZONES = [
  "America/New_York",
  "Europe/London",
  "America/Los_Angeles",
  "Europe/Berlin",
  "America/Chicago",
  "Australia/Sydney",
  "Europe/Madrid",
  "America/Toronto",
];
const CALL_DAYS: Weekday[] = ["TU", "WE", "TH", "MO"];
const WORKSHOP_DAYS: Weekday[] = ["TU", "WE", "TH", "SA"];

/** Past one-off sessions: a title, how many days before the seed, and its recording. */
const PAST_SESSIONS: { title: string; description: string; daysAgo: number; recording: string }[] = [
  {
    title: "Kickoff AMA with the founder",
    description: "Ask anything about where the community is going this year. The recording is below.",
    daysAgo: 12,
    recording: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  },
  {
    title: "Member showcase",
    description: "Five members share what they built this quarter, with time for questions after each.",
    daysAgo: 26,
    recording: "https://www.youtube.com/watch?v=jNQXAC9IVRw",
  },
  {
    title: "Guest session: lessons from ten years in the field",
    description: "A guest expert walks through the mistakes worth avoiding and answers your questions.",
    daysAgo: 47,
    recording: "https://www.youtube.com/watch?v=9bZkp7q5g8I",
  },
];

export type EventSeedResult = { series: number; occurrences: number; rsvps: number };

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** JS getUTCDay (Sunday 0) of a calendar date, as a Weekday code. */
const weekdayOf = (date: string): Weekday => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];

/** The first date on or after `date` that falls on `day`. */
function onOrAfter(date: string, day: Weekday): string {
  let ms = Date.parse(`${date}T00:00:00Z`);
  while (weekdayOf(isoDate(ms)) !== day) ms += DAY;
  return isoDate(ms);
}

/** The nth `day` of the month `monthsBack` months before `now` (n from 1 to 4). */
function nthWeekdayOfMonth(now: number, monthsBack: number, n: number, day: Weekday): string {
  const d = new Date(now);
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1));
  return isoDate(Date.parse(`${onOrAfter(isoDate(first.getTime()), day)}T00:00:00Z`) + (n - 1) * 7 * DAY);
}

const recurrence = (r: Partial<Recurrence> & Pick<Recurrence, "frequency">): Recurrence => ({
  interval: 1,
  weekdays: [],
  monthly_mode: "day_of_month",
  end: "never",
  until: null,
  count: null,
  ...r,
});

/** Slugs made from the community's name, for its meeting links. */
const meetingUrl = (slug: string, what: string) => `https://meet.example.com/${slug}-${what}`;

export async function seedEvents(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<EventSeedResult> {
  const { tx, seeded, accounts, now } = input;
  const rand = prng(0x5eed19);
  const shown = await tx.execute<{ id: string }>(sql`
    SELECT id FROM communities WHERE show_calendar AND id = ANY(${sql.param(seeded.map((c) => c.id))}::uuid[])`);
  const showing = new Set(shown.rows.map((r) => r.id));
  const communities = seeded.filter((c) => !c.def.settingUp && showing.has(c.id));

  type SeriesInsert = typeof eventSeries.$inferInsert;
  const rows: SeriesInsert[] = [];
  const calls: { seriesId: string; community: SeededCommunity }[] = [];
  const workshops: { seriesId: string; community: SeededCommunity; capacity: number }[] = [];
  const recordings: { seriesId: string; url: string }[] = [];

  communities.forEach((c, i) => {
    const zone = ZONES[i % ZONES.length];
    const createdAt = new Date(Math.max(c.createdAt.getTime(), now - 120 * DAY));
    const base = {
      communityId: c.id,
      createdBy: c.ownerId,
      timeZone: zone,
      locationKind: "online" as const,
      audience: "members" as const,
      createdAt,
      updatedAt: createdAt,
    };
    // The weekly call: started eight weeks ago on its weekday, 17:00 in the community's zone.
    const callDay = CALL_DAYS[i % CALL_DAYS.length];
    const call = randomUUID();
    rows.push({
      ...base,
      id: call,
      title: "Weekly Q&A call",
      description: `Bring your questions about ${c.def.name}: the hosts answer live, and the call stays open for whatever comes up.`,
      startsLocal: `${onOrAfter(isoDate(now - 56 * DAY), callDay)}T17:00`,
      durationMinutes: 60,
      meetingUrl: meetingUrl(c.slug, "weekly-call"),
      recurrence: recurrence({ frequency: "weekly", weekdays: [callDay] }),
    });
    calls.push({ seriesId: call, community: c });

    // The monthly workshop: the nth weekday, started three months ago; 90 minutes, limited seats.
    const nth = (i % 3) + 1;
    const workshopDay = WORKSHOP_DAYS[i % WORKSHOP_DAYS.length];
    const workshop = randomUUID();
    const capacity = c.def.members >= 300 ? 12 : 30;
    rows.push({
      ...base,
      id: workshop,
      title: "Monthly hands-on workshop",
      description:
        "A working session: we pick one topic, work through it together in small groups and share the results at the end. Seats are limited so everyone gets time.",
      startsLocal: `${nthWeekdayOfMonth(now, 3, nth, workshopDay)}T${workshopDay === "SA" ? "10:00" : "18:30"}`,
      durationMinutes: 90,
      meetingUrl: meetingUrl(c.slug, "workshop"),
      capacity,
      recurrence: recurrence({ frequency: "monthly", monthly_mode: "nth_weekday" }),
    });
    workshops.push({ seriesId: workshop, community: c, capacity });

    // Two or three past sessions, recorded.
    for (const session of PAST_SESSIONS.slice(0, i % 2 === 0 ? 3 : 2)) {
      const id = randomUUID();
      rows.push({
        ...base,
        id,
        title: session.title,
        description: session.description,
        startsLocal: `${isoDate(now - session.daysAgo * DAY)}T18:00`,
        durationMinutes: 60,
        meetingUrl: meetingUrl(c.slug, "live"),
        recurrence: null,
      });
      recordings.push({ seriesId: id, url: session.recording });
    }
  });
  if (rows.length === 0) return { series: 0, occurrences: 0, rsvps: 0 };

  // Occurrences at the slots the event service's own rule expansion gives, but only the next
  // GENERATE_DAYS: generated_until records how far (null for one-off events), and the daily horizon
  // job extends them to the full horizon on its next run. One statement for all of them.
  const until = new Date(now + GENERATE_DAYS * DAY);
  const slots: { seriesId: string; slot: Date }[] = [];
  for (const r of rows) {
    const rule = { startsLocal: r.startsLocal, timeZone: r.timeZone, recurrence: r.recurrence ?? null };
    for (const slot of expandSeries(rule, new Date(0), until)) slots.push({ seriesId: r.id!, slot });
    r.generatedUntil = r.recurrence && nextSlot(rule, until) ? until : null;
  }
  await tx.insert(eventSeries).values(rows);
  const occurrences = await tx.execute<{ n: number }>(sql`
    WITH ins AS (
      INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, ${sql.raw(COPIED_COLUMNS.join(", "))})
      SELECT s.id, s.community_id, x.slot, x.slot, x.slot + make_interval(mins => s.duration_minutes),
             ${sql.raw(COPIED_COLUMNS.map((c) => `s.${c}`).join(", "))}
        FROM unnest(${sql.param(slots.map((x) => x.seriesId))}::uuid[],
                    ${sql.param(slots.map((x) => x.slot.toISOString()))}::timestamptz[]) AS x(series_id, slot)
        JOIN event_series s ON s.id = x.series_id
      RETURNING 1)
    SELECT count(*)::int AS n FROM ins`);
  await tx.execute(sql`
    UPDATE event_occurrences o SET recording_url = x.url
      FROM unnest(${sql.param(recordings.map((r) => r.seriesId))}::uuid[], ${sql.param(recordings.map((r) => r.url))}::text[]) AS x(series_id, url)
     WHERE o.series_id = x.series_id`);

  // Who is going to the next call and the next workshop (the demo accounts are left to answer themselves).
  const next = await tx.execute<{ series_id: string; id: string }>(sql`
    SELECT DISTINCT ON (series_id) series_id, id FROM event_occurrences
     WHERE series_id = ANY(${sql.param([...calls, ...workshops].map((s) => s.seriesId))}::uuid[])
       AND starts_at > ${new Date(now).toISOString()}::timestamptz
     ORDER BY series_id, starts_at`);
  const nextOf = new Map(next.rows.map((r) => [r.series_id, r.id]));
  const rsvps: { occurrenceId: string; userId: string; status: "going" | "waitlisted" }[] = [];
  const demo = new Set(Object.values(accounts).map((a) => a.id));
  const people = (c: SeededCommunity) =>
    c.members
      .filter((m) => (m.role === "member" || m.role === "moderator") && !demo.has(m.userId))
      .map((m) => ({ m, key: rand() }))
      .sort((a, b) => a.key - b.key)
      .map(({ m }) => m);
  for (const { seriesId, community } of calls) {
    const occurrenceId = nextOf.get(seriesId);
    if (!occurrenceId) continue;
    const going = people(community).slice(0, 3 + Math.floor(rand() * 6));
    for (const m of going) rsvps.push({ occurrenceId, userId: m.userId, status: "going" });
  }
  for (const { seriesId, community, capacity } of workshops) {
    const occurrenceId = nextOf.get(seriesId);
    if (!occurrenceId) continue;
    const candidates = people(community);
    // The largest communities fill the workshop and have a short line; elsewhere a few seats are taken.
    const full = community.def.members >= 300;
    const answering = candidates.slice(0, full ? capacity + 3 : 2 + Math.floor(rand() * 5));
    answering.forEach((m, k) =>
      rsvps.push({ occurrenceId, userId: m.userId, status: k < capacity ? "going" : "waitlisted" }),
    );
  }
  if (rsvps.length > 0) {
    // seq comes from the table's own sequence, in the order above (the waitlist order).
    await insertMany(tx, eventRsvps, [
      [eventRsvps.occurrenceId, rsvps.map((r) => r.occurrenceId)],
      [eventRsvps.userId, rsvps.map((r) => r.userId)],
      [eventRsvps.status, rsvps.map((r) => r.status)],
    ]);
    await tx.execute(sql`
      UPDATE event_occurrences o
         SET going_count = (SELECT count(*) FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'going'),
             waitlist_count = (SELECT count(*) FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'waitlisted')
       WHERE o.id = ANY(${sql.param([...nextOf.values()])}::uuid[])`);
  }
  return { series: rows.length, occurrences: occurrences.rows[0].n, rsvps: rsvps.length };
}
