import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALENDAR_MESSAGES as M } from "#shared/calendar";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { extendHorizons } from "./occurrences";
import { instantToWallClock } from "./recurrence";

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const users = {} as Record<"owner" | "admin" | "moderator" | "member" | "tiered" | "outsider" | "extra", User>;
let community: { id: string; slug: string };
let secret: { id: string; slug: string };
let tierId: string;
const http = () => api(t.app);
const MIN = 60_000;
const DAY = 86_400_000;

/** The wall clock in UTC `offsetMs` from now, to the minute. */
const utcLocal = (offsetMs: number) => instantToWallClock(Date.now() + offsetMs, "UTC");

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["owner", "admin", "moderator", "member", "tiered", "outsider", "extra"] as const)
    users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Event lab" }, { cookie: users.owner.cookie })).body;
  secret = (await http().post("/api/communities", { name: "Secret lab" }, { cookie: users.owner.cookie })).body;
  await t.database.pool.query(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [secret.id]);
  for (const [who, role] of [
    ["admin", "admin"],
    ["moderator", "moderator"],
    ["member", "member"],
    ["tiered", "member"],
  ] as const) {
    for (const c of [community, secret])
      await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
        c.id,
        users[who].id,
        role,
      ]);
  }
  const tier = await t.database.pool.query<{ id: string }>(
    `INSERT INTO community_tiers (community_id, position, name) VALUES ($1, 1, 'Inner circle') RETURNING id`,
    [community.id],
  );
  tierId = tier.rows[0].id;
});
afterAll(() => t?.close());

const base = (over: Record<string, unknown> = {}) => ({
  title: "Weekly call",
  starts_at_local: utcLocal(2 * DAY),
  time_zone: "UTC",
  duration_minutes: 60,
  location_kind: "online",
  meeting_url: "https://meet.example.com/room",
  ...over,
});

async function create(over: Record<string, unknown> = {}, cookie = users.owner.cookie, where = community.id) {
  const res = await http().post(`/api/communities/${where}/events`, base(over), { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const weekly = (over: Record<string, unknown> = {}) => ({
  frequency: "weekly",
  interval: 1,
  weekdays: ["MO"],
  monthly_mode: "day_of_month",
  end: "never",
  until: null,
  count: null,
  ...over,
});

async function occurrencesOf(seriesId: string) {
  const res = await t.database.pool.query<{
    id: string;
    starts_at: Date;
    slot_at: Date;
    status: string;
    title: string;
    overridden: boolean;
    series_id: string;
  }>(
    `SELECT id, starts_at, slot_at, status, title, overridden, series_id FROM event_occurrences WHERE series_id = $1 ORDER BY slot_at`,
    [seriesId],
  );
  return res.rows;
}

describe("creating events", () => {
  it("creates a one-off event and shows it to members", async () => {
    const e = await create({ title: "Kick-off" });
    expect(e).toMatchObject({ title: "Kick-off", recurring: false, recurrence: null, status: "scheduled" });
    expect(e.viewer).toMatchObject({ may_attend: true, may_manage: true, rsvp: null });
    const detail = await http().get(`/api/events/${e.id}`, { cookie: users.member.cookie });
    expect(detail.status).toBe(200);
    expect(detail.body.viewer).toMatchObject({ may_attend: true, may_manage: false });
    expect(detail.body.starts_at_local).toBe(base().starts_at_local.slice(0, 16));
  });

  it("creates a weekly series with occurrences up to the horizon", async () => {
    const e = await create({ title: "Monday call", recurrence: weekly({ weekdays: ["MO", "TH"] }) });
    expect(e.recurring).toBe(true);
    expect(e.recurrence).toMatchObject({ frequency: "weekly", weekdays: ["MO", "TH"] });
    const rows = await occurrencesOf(e.series_id);
    // Two a week for about 400 days.
    expect(rows.length).toBeGreaterThan(110);
    expect(rows.length).toBeLessThan(118);
    for (const r of rows) expect([1, 4]).toContain(new Date(r.starts_at).getUTCDay());
    const series = await t.database.pool.query(`SELECT generated_until FROM event_series WHERE id = $1`, [e.series_id]);
    expect(series.rows[0].generated_until).not.toBeNull();
    // The horizon job adds nothing while the horizon is far.
    expect(await extendHorizons(t.database.db)).toBe(0);
    // A month later it extends the series, idempotently.
    expect(await extendHorizons(t.database.db, Date.now() + 60 * DAY)).toBeGreaterThan(0);
    const after = await occurrencesOf(e.series_id);
    expect(after.length).toBeGreaterThan(rows.length);
    expect(new Set(after.map((r) => r.slot_at.toISOString())).size).toBe(after.length);
  });

  it("a series that ends is complete: generated_until is null", async () => {
    const e = await create({ recurrence: weekly({ end: "after", count: 3 }) });
    expect(await occurrencesOf(e.series_id)).toHaveLength(3);
    const series = await t.database.pool.query(`SELECT generated_until FROM event_series WHERE id = $1`, [e.series_id]);
    expect(series.rows[0].generated_until).toBeNull();
  });

  it("refuses members without manage_events and outsiders", async () => {
    for (const who of ["moderator", "member"] as const) {
      const res = await http().post(`/api/communities/${community.id}/events`, base(), { cookie: users[who].cookie });
      expect(res.status, who).toBe(403);
      expect(res.body.error.message).toBe(M.forbidden);
    }
    expect((await http().post(`/api/communities/${community.id}/events`, base())).status).toBe(401);
    expect(
      (await http().post(`/api/communities/${secret.id}/events`, base(), { cookie: users.outsider.cookie })).status,
    ).toBe(404);
  });

  it("answers bad input with the message next to the field", async () => {
    const post = (over: Record<string, unknown>) =>
      http().post(`/api/communities/${community.id}/events`, base(over), { cookie: users.owner.cookie });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ time_zone: "Mars/Olympus" }, M.zoneInvalid, "time_zone"],
      [{ meeting_url: "javascript:alert(1)" }, M.meetingUrlInvalid, "meeting_url"],
      [{ title: "x".repeat(10_000) }, "Title must be at most 120 characters", "title"],
      [{ title: "   " }, M.titleRequired, "title"],
      [{ starts_at_local: "2026-02-30T10:00" }, M.startInvalid, "starts_at_local"],
      [{ duration_minutes: 2 }, M.durationInvalid, "duration_minutes"],
      [{ location_kind: "place", meeting_url: null }, M.placeRequired, "place"],
      [{ audience: "tiers" }, M.tiersRequired, "tier_ids"],
      [{ audience: "tiers", tier_ids: ["00000000-0000-4000-8000-000000000000"] }, "Unknown tier", "tier_ids"],
      [{ capacity: 0 }, M.capacityInvalid, "capacity"],
      [
        { starts_at_local: "2030-05-10T10:00", recurrence: weekly({ end: "on_date", until: "2030-05-01" }) },
        M.untilBeforeStart,
        "recurrence.until",
      ],
      [{ recurrence: weekly({ weekdays: [] }) }, M.weekdaysRequired, "recurrence.weekdays"],
      [{ recurrence: weekly({ end: "after", count: 5000 }) }, M.countInvalid, "recurrence.count"],
    ];
    for (const [over, message, field] of cases) {
      const res = await post(over);
      expect(res.status, JSON.stringify(over).slice(0, 80)).toBe(400);
      expect(res.body.error, JSON.stringify(over).slice(0, 80)).toMatchObject({ message, field });
    }
  });
});

describe("who sees events", () => {
  it("keeps a private community's events from non-members (list and detail)", async () => {
    const e = await create({ title: "Secret session" }, users.owner.cookie, secret.id);
    const month = { from: new Date().toISOString(), to: new Date(Date.now() + 30 * DAY).toISOString() };
    for (const cookie of [users.outsider.cookie, undefined]) {
      const list = await http().get(`/api/communities/${secret.id}/events`, { cookie, query: month });
      expect(list.status).toBe(404);
      expect(JSON.stringify(list.body)).not.toContain("Secret session");
      const detail = await http().get(`/api/events/${e.id}`, { cookie });
      expect(detail.status).toBe(404);
      expect(detail.body.error.message).toBe(M.notFound);
    }
    const mine = await http().get(`/api/communities/${secret.id}/events`, {
      cookie: users.member.cookie,
      query: month,
    });
    expect(mine.body.items.map((i: { id: string }) => i.id)).toContain(e.id);
  });

  it("answers a non-member of a public community with an empty calendar and 404 details", async () => {
    const e = await create({ title: "Public but members only" });
    const list = await http().get(`/api/communities/${community.id}/events`, {
      cookie: users.outsider.cookie,
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [], next_cursor: null });
    expect((await http().get(`/api/communities/${community.id}/events`)).body).toEqual({
      items: [],
      next_cursor: null,
    });
    const detail = await http().get(`/api/events/${e.id}`, { cookie: users.outsider.cookie });
    expect(detail.status).toBe(404);
    expect(detail.body.error.message).toBe(M.notFound);
    expect((await http().get(`/api/events/not-a-uuid`, { cookie: users.member.cookie })).status).toBe(404);
  });

  it("hides 'admins' events from plain members", async () => {
    const e = await create({ title: "Admin sync", audience: "admins" });
    const upcoming = async (cookie: string) =>
      (
        await http().get(`/api/communities/${community.id}/events`, {
          cookie,
          query: { when: "upcoming", limit: "100" },
        })
      ).body.items.map((i: { id: string }) => i.id);
    expect(await upcoming(users.member.cookie)).not.toContain(e.id);
    expect(await upcoming(users.admin.cookie)).toContain(e.id);
    expect((await http().get(`/api/events/${e.id}`, { cookie: users.member.cookie })).status).toBe(404);
  });

  it("shows the meeting link from 15 minutes before the start, to those who may attend", async () => {
    const soon = await create({ title: "Soon", starts_at_local: utcLocal(10 * MIN + 30_000) });
    const later = await create({ title: "Later", starts_at_local: utcLocal(20 * MIN + 30_000) });
    const tiers = await create({
      title: "Tier call",
      starts_at_local: utcLocal(10 * MIN + 30_000),
      audience: "tiers",
      tier_ids: [tierId],
    });
    const get = async (id: string, cookie: string) => (await http().get(`/api/events/${id}`, { cookie })).body;
    expect(await get(soon.id, users.member.cookie)).toMatchObject({
      meeting_url: "https://meet.example.com/room",
      has_meeting_link: true,
    });
    expect(await get(later.id, users.member.cookie)).toMatchObject({ meeting_url: null, has_meeting_link: true });
    // A member without the tier sees the event, not its link.
    const t1 = await get(tiers.id, users.member.cookie);
    expect(t1).toMatchObject({ meeting_url: null, has_meeting_link: true });
    expect(t1.viewer.may_attend).toBe(false);
    expect((await get(tiers.id, users.admin.cookie)).meeting_url).toBe("https://meet.example.com/room");
  });

  it("answers members 404 when the calendar is off; owners and admins still see it", async () => {
    const e = await create({ title: "Hidden calendar" });
    await t.database.pool.query(`UPDATE communities SET show_calendar = false WHERE id = $1`, [community.id]);
    try {
      const res = await http().get(`/api/communities/${community.id}/events`, { cookie: users.member.cookie });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(M.calendarOff);
      expect((await http().get(`/api/events/${e.id}`, { cookie: users.member.cookie })).status).toBe(404);
      const admin = await http().get(`/api/communities/${community.id}/events`, {
        cookie: users.admin.cookie,
        query: { when: "upcoming", limit: "100" },
      });
      expect(admin.body.items.map((i: { id: string }) => i.id)).toContain(e.id);
    } finally {
      await t.database.pool.query(`UPDATE communities SET show_calendar = true WHERE id = $1`, [community.id]);
    }
  });
});

describe("lists", () => {
  it("pages upcoming events by start with a cursor, and past ones newest first", async () => {
    const c = (await http().post("/api/communities", { name: "List lab" }, { cookie: users.owner.cookie })).body;
    const e = await create(
      { title: "Daily", recurrence: { frequency: "daily", end: "after", count: 5 } },
      users.owner.cookie,
      c.id,
    );
    const past = await create({ title: "Yesterday", starts_at_local: utcLocal(-DAY) }, users.owner.cookie, c.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await http().get(`/api/communities/${c.id}/events`, {
        cookie: users.owner.cookie,
        query: { when: "upcoming", limit: "2", ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { id: string }) => i.id));
      cursor = res.body.next_cursor ?? undefined;
    } while (cursor);
    const rows = await occurrencesOf(e.series_id);
    expect(seen).toEqual(rows.map((r) => r.id));
    const pastList = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { when: "past" },
    });
    expect(pastList.body.items.map((i: { id: string }) => i.id)).toEqual([past.id]);
    const bad = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { when: "upcoming", cursor: "nonsense" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("cursor");
    const tooLong = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { from: new Date().toISOString(), to: new Date(Date.now() + 60 * DAY).toISOString() },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.field).toBe("to");
  });
});
