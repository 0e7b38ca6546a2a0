import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, sessionCookie } from "#server/test/harness";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { list, logged, query, t, userId, useSeededApp } from "./seed.test-helpers";

useSeededApp();

type SeriesRow = {
  id: string;
  community_id: string;
  title: string;
  time_zone: string;
  duration_minutes: number;
  capacity: number | null;
  meeting_url: string;
  recurrence: { frequency: string; monthly_mode: string; weekdays: string[] } | null;
  generated_until: Date | null;
  past: number;
  upcoming: number;
  local_times: string[];
  recordings: string[];
};

describe("demo events", () => {
  let series: SeriesRow[];
  let calendarCommunities: string[];

  beforeAll(async () => {
    series = await query<SeriesRow>(sql`
      select s.id, s.community_id, s.title, s.time_zone, s.duration_minutes, s.capacity, s.meeting_url, s.recurrence,
             s.generated_until,
             (select count(*)::int from event_occurrences o where o.series_id = s.id and o.starts_at < now()) as past,
             (select count(*)::int from event_occurrences o where o.series_id = s.id and o.starts_at >= now()) as upcoming,
             (select array_agg(distinct to_char(o.starts_at at time zone o.time_zone, 'Dy HH24:MI'))
                from event_occurrences o where o.series_id = s.id) as local_times,
             (select coalesce(array_agg(o.recording_url) filter (where o.recording_url is not null), '{}')
                from event_occurrences o where o.series_id = s.id) as recordings
        from event_series s`);
    calendarCommunities = (
      await query<{ id: string }>(sql`select id from communities where show_calendar and onboarding_completed`)
    ).map((r) => r.id);
  });

  it("gives every demo community with a calendar a weekly call, a monthly workshop and recorded past sessions", () => {
    expect(calendarCommunities.length).toBeGreaterThan(10);
    const settingUp = list.filter((c) => !c.onboarding_completed).map((c) => c.id);
    expect(series.filter((s) => settingUp.includes(s.community_id))).toEqual([]);
    for (const id of calendarCommunities) {
      const mine = series.filter((s) => s.community_id === id);
      const calls = mine.filter((s) => s.recurrence?.frequency === "weekly");
      const workshops = mine.filter((s) => s.recurrence?.frequency === "monthly");
      const oneOffs = mine.filter((s) => s.recurrence === null);
      expect(
        calls.map((s) => s.title),
        id,
      ).toEqual(["Weekly Q&A call"]);
      expect(workshops.length, id).toBe(1);
      expect(workshops[0]).toMatchObject({ duration_minutes: 90, recurrence: { monthly_mode: "nth_weekday" } });
      expect(oneOffs.length, id).toBeGreaterThanOrEqual(2);
      expect(oneOffs.length, id).toBeLessThanOrEqual(3);
      for (const s of oneOffs) {
        expect(s, s.title).toMatchObject({ past: 1, upcoming: 0, generated_until: null });
        expect(s.recordings).toHaveLength(1);
        expect(s.recordings[0]).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}$/);
      }
      for (const s of mine) expect(s.meeting_url).toMatch(/^https:\/\/meet\.example\.com\/[a-z0-9-]+$/);
    }
  });

  it("keeps the calls at 17:00 on one weekday in their zone, past and upcoming, with the horizon recorded", () => {
    const calls = series.filter((s) => s.recurrence?.frequency === "weekly");
    expect(new Set(calls.map((s) => s.time_zone)).size).toBeGreaterThan(3);
    for (const s of calls) {
      // Across daylight-saving changes, one weekday and one wall-clock time.
      expect(s.local_times, s.time_zone).toHaveLength(1);
      expect(s.local_times[0]).toMatch(/^(Mon|Tue|Wed|Thu) 17:00$/);
      expect(s.past).toBeGreaterThanOrEqual(7);
      expect(s.upcoming).toBeGreaterThanOrEqual(17);
      expect(s.generated_until).not.toBeNull();
      // The next 120 days exist; the horizon job extends them from there.
      expect(new Date(s.generated_until!).getTime()).toBeGreaterThan(Date.now() + 119 * 86_400_000);
    }
    for (const s of series.filter((x) => x.recurrence?.frequency === "monthly")) {
      expect(s.local_times.length, s.id).toBe(1);
      expect(s.past).toBeGreaterThanOrEqual(2);
      // The 120 days ahead hold 3 or 4 of them, by the day of the month the seed runs (an nth weekday
      // comes back within 35 days: 3 always fit, a 4th only when the first is near).
      expect(s.upcoming).toBeGreaterThanOrEqual(3);
      expect(s.generated_until).not.toBeNull();
    }
  });

  it("has members going to the next call, full workshops with a line, and counters equal to the rows", async () => {
    const next = await query<{ community_id: string; going_count: number; waitlist_count: number }>(sql`
      select distinct on (o.series_id) o.community_id, o.going_count, o.waitlist_count from event_occurrences o
        join event_series s on s.id = o.series_id
       where s.title = 'Weekly Q&A call' and o.starts_at > now() order by o.series_id, o.starts_at`);
    expect(next.length).toBe(calendarCommunities.length);
    for (const n of next) expect(n.going_count, n.community_id).toBeGreaterThanOrEqual(3);
    const full = await query<{ n: number }>(sql`
      select count(*)::int as n from event_occurrences
       where capacity is not null and going_count = capacity and waitlist_count > 0`);
    expect(full[0].n).toBeGreaterThan(0);
    const drift = await query<{ id: string }>(sql`
      select o.id from event_occurrences o
       where o.going_count <> (select count(*) from event_rsvps r where r.occurrence_id = o.id and r.status = 'going')
          or o.waitlist_count <> (select count(*) from event_rsvps r where r.occurrence_id = o.id and r.status = 'waitlisted')
          or o.going_count > coalesce(o.capacity, o.going_count)`);
    expect(drift).toEqual([]);
    // Only members answer; the demo accounts are left to answer themselves.
    const strays = await query<{ n: number }>(sql`
      select count(*)::int as n from event_rsvps r join event_occurrences o on o.id = r.occurrence_id
       where not exists (select 1 from community_members m where m.community_id = o.community_id and m.user_id = r.user_id)`);
    expect(strays[0].n).toBe(0);
    const demo = [await userId("owner@hearth.test"), await userId("member@hearth.test")];
    const mine = await query<{ n: number }>(sql`
      select count(*)::int as n from event_rsvps where user_id = any(${sql.param(demo)}::text[])`);
    expect(mine[0].n).toBe(0);
    expect(logged.join("\n")).toMatch(/\d+ event series with \d+ occurrences, \d+ RSVPs/);
  });

  it("lets member@hearth.test answer going to the next call and see who else is going", async () => {
    const res = await api(t.app).post("/api/auth/sign-in/email", {
      email: "member@hearth.test",
      password: DEMO_PASSWORD,
    });
    const cookie = sessionCookie(res.headers);
    const [next] = await query<{ id: string; going_count: number }>(sql`
      select o.id, o.going_count from event_occurrences o join communities c on c.id = o.community_id
       where c.slug = 'python-for-data-people' and o.title = 'Weekly Q&A call' and o.starts_at > now()
       order by o.starts_at limit 1`);
    const answer = await api(t.app).put(`/api/events/${next.id}/rsvp`, { status: "going" }, { cookie });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ rsvp: "going", going_count: next.going_count + 1 });
    const attendees = await api(t.app).get(`/api/events/${next.id}/attendees`, { cookie });
    expect(attendees.status).toBe(200);
    expect(attendees.body.going.length).toBe(next.going_count + 1);
    for (const p of attendees.body.going) expect(p.full_name.length).toBeGreaterThan(0);
  });
});
