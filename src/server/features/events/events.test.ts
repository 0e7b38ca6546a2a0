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

  it("keeps a New York weekly event at 10:00 local across the March change, in the month view", async () => {
    const c = (await http().post("/api/communities", { name: "Zone lab" }, { cookie: users.owner.cookie })).body;
    await create(
      {
        starts_at_local: "2027-03-01T10:00",
        time_zone: "America/New_York",
        recurrence: weekly({ end: "after", count: 3 }),
      },
      users.owner.cookie,
      c.id,
    );
    const res = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { from: "2027-02-25T00:00:00Z", to: "2027-04-01T00:00:00Z" },
    });
    expect(
      res.body.items.map((i: { starts_at: string; starts_at_local: string }) => [i.starts_at, i.starts_at_local]),
    ).toEqual([
      ["2027-03-01T15:00:00.000Z", "2027-03-01T10:00"],
      ["2027-03-08T15:00:00.000Z", "2027-03-08T10:00"],
      ["2027-03-15T14:00:00.000Z", "2027-03-15T10:00"],
    ]);
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
    // A member holding the tier (an open entitlement) may attend and sees the link.
    await t.database.pool.query(
      `INSERT INTO entitlements (user_id, provider, kind, community_id, tier_id, status, currency, interval)
       VALUES ($1, 'simulated', 'community', $2, $3, 'active', 'eur', 'month')`,
      [users.tiered.id, community.id, tierId],
    );
    const held = await get(tiers.id, users.tiered.cookie);
    expect(held.viewer.may_attend).toBe(true);
    expect(held.meeting_url).toBe("https://meet.example.com/room");
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

/** The next Monday at least a week away, as a UTC date. */
function nextMonday(): string {
  const d = new Date(Date.now() + 7 * DAY);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return d.toISOString().slice(0, 10);
}

async function goingOn(occurrenceId: string, who: User[]) {
  for (const u of who)
    await t.database.pool.query(`INSERT INTO event_rsvps (occurrence_id, user_id, status) VALUES ($1, $2, 'going')`, [
      occurrenceId,
      u.id,
    ]);
  await t.database.pool.query(`UPDATE event_occurrences SET going_count = $2 WHERE id = $1`, [
    occurrenceId,
    who.length,
  ]);
}

const patch = (id: string, body: Record<string, unknown>, cookie = users.owner.cookie) =>
  http().patch(`/api/events/${id}`, body, { cookie });

describe("editing", () => {
  it("'one' edits that occurrence alone, keeps its slot, and later 'all' edits leave it be", async () => {
    const monday = nextMonday();
    const e = await create({ starts_at_local: `${monday}T10:00`, recurrence: weekly({ end: "after", count: 4 }) });
    const [, second] = await occurrencesOf(e.series_id);
    const res = await patch(second.id, {
      scope: "one",
      title: "Special",
      starts_at_local: `${second.slot_at.toISOString().slice(0, 10)}T12:30`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: second.id,
      title: "Special",
      starts_at_local: `${second.slot_at.toISOString().slice(0, 10)}T12:30`,
    });
    const all = await patch(e.id, { scope: "all", title: "Renamed" });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const rows = await occurrencesOf(e.series_id);
    expect(rows.map((r) => r.title)).toEqual(["Renamed", "Special", "Renamed", "Renamed"]);
    const moved = rows.find((r) => r.id === second.id)!;
    expect(moved.overridden).toBe(true);
    expect(moved.slot_at.toISOString()).toBe(second.slot_at.toISOString());
    expect(moved.starts_at.toISOString()).toBe(`${second.slot_at.toISOString().slice(0, 10)}T12:30:00.000Z`);
    // The rule changes only with 'all' or 'following'.
    const refused = await patch(second.id, { scope: "one", recurrence: weekly() });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ message: M.scopeRequired, field: "scope" });
  });

  it("'all' with a new time keeps every occurrence and its RSVPs; a new weekday replaces the rest", async () => {
    const monday = nextMonday();
    const e = await create({ starts_at_local: `${monday}T10:00`, recurrence: weekly({ end: "after", count: 4 }) });
    const before = await occurrencesOf(e.series_id);
    await goingOn(before[2].id, [users.member]);
    const res = await patch(e.id, { scope: "all", starts_at_local: `${monday}T11:00` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await occurrencesOf(e.series_id);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    for (const r of after) expect(r.starts_at.toISOString().slice(11, 16)).toBe("11:00");
    // Tuesdays instead: the Mondays nobody answered go, the one with an RSVP stays, cancelled.
    const tue = await patch(e.id, { scope: "all", recurrence: weekly({ weekdays: ["TU"], end: "after", count: 4 }) });
    expect(tue.status, JSON.stringify(tue.body)).toBe(200);
    const rows = await occurrencesOf(e.series_id);
    const scheduled = rows.filter((r) => r.status === "scheduled");
    expect(scheduled).toHaveLength(4);
    for (const r of scheduled) expect(new Date(r.starts_at).getUTCDay()).toBe(2);
    expect(rows.filter((r) => r.status === "cancelled").map((r) => r.id)).toEqual([before[2].id]);
  });

  it("'following' splits the series: the earlier ones stay, the later ones move to a new series with their ids", async () => {
    const monday = nextMonday();
    const e = await create({ starts_at_local: `${monday}T10:00`, recurrence: weekly({ end: "after", count: 6 }) });
    const before = await occurrencesOf(e.series_id);
    await goingOn(before[4].id, [users.member, users.admin]);
    const res = await patch(before[2].id, { scope: "following", title: "Season two", duration_minutes: 90 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: before[2].id, title: "Season two", duration_minutes: 90 });
    expect(res.body.series_id).not.toBe(e.series_id);
    const old = await occurrencesOf(e.series_id);
    expect(old.map((r) => r.id)).toEqual(before.slice(0, 2).map((r) => r.id));
    expect(old.map((r) => r.title)).toEqual(["Weekly call", "Weekly call"]);
    const moved = await occurrencesOf(res.body.series_id);
    expect(moved.map((r) => r.id)).toEqual(before.slice(2).map((r) => r.id));
    expect(moved.map((r) => r.title)).toEqual(Array(4).fill("Season two"));
    const rsvps = await t.database.pool.query(`SELECT count(*)::int AS n FROM event_rsvps WHERE occurrence_id = $1`, [
      before[4].id,
    ]);
    expect(rsvps.rows[0].n).toBe(2);
    const series = await t.database.pool.query(`SELECT recurrence FROM event_series WHERE id = $1`, [e.series_id]);
    expect(series.rows[0].recurrence).toMatchObject({ end: "on_date", count: null });
    const added = await t.database.pool.query(`SELECT recurrence FROM event_series WHERE id = $1`, [
      res.body.series_id,
    ]);
    // The remaining count goes with the new series.
    expect(added.rows[0].recurrence).toMatchObject({ end: "after", count: 4 });
  });

  it("moving a one-off event to another day keeps it and its RSVPs, whatever the scope", async () => {
    const e = await create({ title: "Moved", starts_at_local: `${nextMonday()}T10:00` });
    await goingOn(e.id, [users.member]);
    const thursday = new Date(Date.parse(`${nextMonday()}T00:00:00Z`) + 3 * DAY).toISOString().slice(0, 10);
    const res = await patch(e.id, { scope: "one", starts_at_local: `${thursday}T09:15` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, going_count: 1, starts_at_local: `${thursday}T09:15` });
    const rows = await occurrencesOf(e.series_id);
    expect(rows.map((r) => [r.id, r.status, r.overridden])).toEqual([[e.id, "scheduled", false]]);
    const series = await t.database.pool.query(`SELECT starts_local FROM event_series WHERE id = $1`, [e.series_id]);
    expect(series.rows[0].starts_local).toBe(`${thursday}T09:15`);
  });

  it("'following' with a new time moves the later occurrences to it, in the event's zone", async () => {
    const monday = nextMonday();
    const e = await create({
      starts_at_local: `${monday}T10:00`,
      time_zone: "Europe/London",
      recurrence: weekly({ end: "after", count: 4 }),
    });
    const before = await occurrencesOf(e.series_id);
    const third = instantToWallClock(before[2].slot_at, "Europe/London").slice(0, 10);
    const res = await patch(before[2].id, { scope: "following", starts_at_local: `${third}T18:30` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: before[2].id, starts_at_local: `${third}T18:30` });
    const moved = await occurrencesOf(res.body.series_id);
    expect(moved.map((r) => r.id)).toEqual([before[2].id, before[3].id]);
    for (const r of moved) expect(instantToWallClock(r.starts_at, "Europe/London").slice(11)).toBe("18:30");
    for (const r of await occurrencesOf(e.series_id))
      expect(instantToWallClock(r.starts_at, "Europe/London").slice(11)).toBe("10:00");
  });

  it("refuses a capacity below the number going, and changes nothing", async () => {
    const e = await create({
      capacity: 10,
      recurrence: weekly({ end: "after", count: 3 }),
      starts_at_local: `${nextMonday()}T10:00`,
    });
    await goingOn(e.id, [users.member, users.admin, users.moderator]);
    for (const scope of ["one", "all"]) {
      const res = await patch(e.id, { scope, capacity: 2 });
      expect(res.status, scope).toBe(400);
      expect(res.body.error).toMatchObject({ message: M.capacityBelowGoing(3), field: "capacity" });
    }
    const ok = await patch(e.id, { scope: "one", capacity: 3 });
    expect(ok.body.capacity).toBe(3);
  });

  it("a past occurrence changes only its recording link", async () => {
    const c = (await http().post("/api/communities", { name: "Past lab" }, { cookie: users.owner.cookie })).body;
    const e = await create({ title: "Done", starts_at_local: utcLocal(-3 * DAY) }, users.owner.cookie, c.id);
    const refused = await patch(e.id, { title: "Rewritten" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ message: M.ended, field: "title" });
    const bad = await patch(e.id, { recording_url: "javascript:alert(1)" });
    expect(bad.body.error).toMatchObject({ message: M.recordingUrlInvalid, field: "recording_url" });
    const ok = await patch(e.id, { recording_url: "https://video.example.com/rec" });
    expect(ok.status).toBe(200);
    const past = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { when: "past" },
    });
    expect(past.body.items).toMatchObject([
      { id: e.id, title: "Done", recording_url: "https://video.example.com/rec" },
    ]);
  });

  it("'all' from an ended occurrence of a series changes the ones to come, never the ended one", async () => {
    const e = await create({
      title: "Daily standup",
      starts_at_local: utcLocal(-3 * DAY),
      recurrence: { frequency: "daily", end: "after", count: 6 },
    });
    const rows = await occurrencesOf(e.series_id);
    expect((await patch(rows[0].id, { scope: "one", title: "Nope" })).status).toBe(400);
    const res = await patch(rows[0].id, { scope: "all", title: "Daily sync" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await occurrencesOf(e.series_id);
    const now = Date.now();
    for (const r of after)
      expect(r.title).toBe(r.starts_at.getTime() + 3_600_000 <= now ? "Daily standup" : "Daily sync");
    expect(after.filter((r) => r.title === "Daily sync").length).toBeGreaterThanOrEqual(2);
  });

  it("members without manage_events are refused; outsiders get not found", async () => {
    const e = await create();
    for (const who of ["member", "moderator"] as const) {
      const res = await patch(e.id, { title: "Mine" }, users[who].cookie);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(M.forbidden);
      const cancel = await http().post(`/api/events/${e.id}/cancel`, { scope: "one" }, { cookie: users[who].cookie });
      expect(cancel.status).toBe(403);
    }
    const outsider = await patch(e.id, { title: "Mine" }, users.outsider.cookie);
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.message).toBe(M.notFound);
  });
});

describe("cancelling", () => {
  it("cancels one occurrence: shown cancelled in the month view, left out of the upcoming list", async () => {
    const c = (await http().post("/api/communities", { name: "Cancel lab" }, { cookie: users.owner.cookie })).body;
    const monday = nextMonday();
    const e = await create(
      { starts_at_local: `${monday}T10:00`, recurrence: weekly({ end: "after", count: 3 }) },
      users.owner.cookie,
      c.id,
    );
    const rows = await occurrencesOf(e.series_id);
    const res = await http().post(`/api/events/${rows[1].id}/cancel`, { scope: "one" }, { cookie: users.owner.cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("cancelled");
    const month = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { from: new Date().toISOString(), to: new Date(Date.now() + 40 * DAY).toISOString() },
    });
    expect(month.body.items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [rows[0].id, "scheduled"],
      [rows[1].id, "cancelled"],
      [rows[2].id, "scheduled"],
    ]);
    const upcoming = await http().get(`/api/communities/${c.id}/events`, {
      cookie: users.owner.cookie,
      query: { when: "upcoming" },
    });
    expect(upcoming.body.items.map((i: { id: string }) => i.id)).toEqual([rows[0].id, rows[2].id]);
  });

  it("cancels this and following, and stops the rule there", async () => {
    const e = await create({ starts_at_local: `${nextMonday()}T10:00`, recurrence: weekly() });
    const rows = await occurrencesOf(e.series_id);
    const res = await http().post(
      `/api/events/${rows[3].id}/cancel`,
      { scope: "following" },
      { cookie: users.owner.cookie },
    );
    expect(res.status).toBe(200);
    const after = await occurrencesOf(e.series_id);
    expect(after.slice(0, 3).every((r) => r.status === "scheduled")).toBe(true);
    expect(after.slice(3).every((r) => r.status === "cancelled")).toBe(true);
    const series = await t.database.pool.query(`SELECT generated_until, recurrence FROM event_series WHERE id = $1`, [
      e.series_id,
    ]);
    expect(series.rows[0].generated_until).toBeNull();
    expect(series.rows[0].recurrence.end).toBe("on_date");
  });

  it("cancels all: every occurrence not yet ended, and no more are made; answers 400 for an ended one", async () => {
    const e = await create({
      starts_at_local: `${nextMonday()}T10:00`,
      recurrence: weekly({ weekdays: ["MO", "FR"] }),
    });
    const before = await occurrencesOf(e.series_id);
    const res = await http().post(
      `/api/events/${before[5].id}/cancel`,
      { scope: "all" },
      { cookie: users.owner.cookie },
    );
    expect(res.status).toBe(200);
    const after = await occurrencesOf(e.series_id);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.every((r) => r.status === "cancelled")).toBe(true);
    const series = await t.database.pool.query(`SELECT generated_until FROM event_series WHERE id = $1`, [e.series_id]);
    expect(series.rows[0].generated_until).toBeNull();
    await extendHorizons(t.database.db, Date.now() + 60 * DAY);
    expect(await occurrencesOf(e.series_id)).toHaveLength(before.length);
    const c = (await http().post("/api/communities", { name: "Ended lab" }, { cookie: users.owner.cookie })).body;
    const done = await create({ starts_at_local: utcLocal(-2 * DAY) }, users.owner.cookie, c.id);
    const late = await http().post(`/api/events/${done.id}/cancel`, { scope: "one" }, { cookie: users.owner.cookie });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toBe(M.ended);
  });
});
