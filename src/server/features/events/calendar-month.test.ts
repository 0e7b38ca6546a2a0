import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CALENDAR_CHANNEL } from "#server/lib/public-cache";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { instantToWallClock } from "./recurrence";

// The month grid (calendar-month.ts): one answer per community, range and kind of viewer, kept until
// the database announces a change to the community's occurrences (migration 0020).

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
let owner: User;
let member: User;
let outsider: User;
let community: { id: string; slug: string };
const http = () => api(t.app);
const DAY = 86_400_000;
const announced = new Set<string>();

/** Waits until this process has heard every announcement made so far (they arrive in order). */
async function settle() {
  const marker = `marker-${announced.size}-${Math.random()}`;
  await t.database.pool.query(`SELECT pg_notify($1, $2)`, [CALENDAR_CHANNEL, marker]);
  await vi.waitFor(() => expect(announced.has(marker)).toBe(true), { timeout: 10_000, interval: 20 });
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signedInUser(t);
  member = await signedInUser(t);
  outsider = await signedInUser(t);
  t.app.ctx.listener.on(CALENDAR_CHANNEL, (payload) => announced.add(payload));
  community = (await http().post("/api/communities", { name: "Month lab" }, { cookie: owner.cookie })).body;
  await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'member')`, [
    community.id,
    member.id,
  ]);
});
afterAll(() => t?.close());

/** A month from yesterday, fixed for the file (the grid asks for whole days, so its ranges repeat). */
const FROM = new Date(Date.now() - DAY).toISOString();
const TO = new Date(Date.now() + 30 * DAY).toISOString();
const RANGE = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;
const month = async (who: User | null, query = RANGE, where = community.id) =>
  http().get(`/api/communities/${where}/calendar?${query}`, who ? { cookie: who.cookie } : {});

async function create(over: Record<string, unknown>, where = community.id) {
  const res = await http().post(
    `/api/communities/${where}/events`,
    {
      title: "Weekly call",
      starts_at_local: instantToWallClock(Date.now() + 2 * DAY, "UTC"),
      time_zone: "UTC",
      duration_minutes: 60,
      location_kind: "place",
      place: "The hall",
      ...over,
    },
    { cookie: owner.cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; series_id: string };
}

describe("the month grid", () => {
  it("lists each occurrence of the range once, in order; admins-only events to managers alone; outsiders none", async () => {
    const weekly = await create({
      title: "Weekly call",
      recurrence: { frequency: "weekly", interval: 1, weekdays: ["MO", "TH"], end: "never" },
    });
    const staff = await create({ title: "Staff sync", audience: "admins" });
    const seen = (await month(member)).body.items as { id: string; title: string; starts_at: string; status: string }[];
    const occurrences = await t.database.pool.query<{ id: string }>(
      // The range's own end, not now() + 30 days: a slot on the 30th day at the series' time of day
      // (set a moment after TO was fixed) lies past TO but before a later now() + 30 days.
      `SELECT id FROM event_occurrences WHERE series_id = $1 AND starts_at < $2::timestamptz ORDER BY starts_at`,
      [weekly.series_id, TO],
    );
    expect(seen.map((i) => i.id)).toEqual(occurrences.rows.map((r) => r.id));
    expect(seen.every((i) => i.title === "Weekly call" && i.status === "scheduled")).toBe(true);
    expect([...seen].sort((a, b) => a.starts_at.localeCompare(b.starts_at))).toEqual(seen);
    const managed = (await month(owner)).body.items as { id: string }[];
    expect(managed.map((i) => i.id)).toContain(staff.id);
    expect(managed).toHaveLength(seen.length + 1);
    expect((await month(outsider)).body).toEqual({ items: [], more: [] });
    expect((await month(null)).body).toEqual({ items: [], more: [] });
  });

  it("shows a change made after it was built (any process: the database announces it)", async () => {
    const event = await create({ title: "Before" });
    await settle();
    expect(
      ((await month(member)).body.items as { id: string; title: string }[]).find((i) => i.id === event.id)?.title,
    ).toBe("Before");
    // Kept: a write the database does not announce (its trigger off) is not seen.
    await t.database.pool.query(`ALTER TABLE event_occurrences DISABLE TRIGGER event_occurrence_calendar_change`);
    try {
      await t.database.pool.query(`UPDATE event_occurrences SET title = 'Unannounced' WHERE id = $1`, [event.id]);
    } finally {
      await t.database.pool.query(`ALTER TABLE event_occurrences ENABLE TRIGGER event_occurrence_calendar_change`);
    }
    expect(
      ((await month(member)).body.items as { id: string; title: string }[]).find((i) => i.id === event.id)?.title,
    ).toBe("Before");
    // Another process's write: straight into the database, no code path of this process drops anything.
    await t.database.pool.query(`UPDATE event_occurrences SET title = 'After', status = 'cancelled' WHERE id = $1`, [
      event.id,
    ]);
    await vi.waitFor(
      async () => {
        const item = ((await month(member)).body.items as { id: string; title: string; status: string }[]).find(
          (i) => i.id === event.id,
        );
        expect(item).toMatchObject({ title: "After", status: "cancelled" });
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("lists the soonest few of a busy day and counts the rest, by the day in the viewer's zone", async () => {
    // Five events on one day: 22:00, 22:30 … 00:00 UTC. In Tokyo (UTC+9) they all fall on the next day.
    const day = new Date(Date.now() + 10 * DAY);
    const at = (minutes: number) =>
      instantToWallClock(
        Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 22, 0) + minutes * 60_000,
        "UTC",
      );
    const busy = (await http().post("/api/communities", { name: "Busy lab" }, { cookie: owner.cookie })).body
      .id as string;
    const made = [];
    for (const minutes of [0, 30, 60, 90, 120])
      made.push(await create({ title: `Busy ${minutes}`, starts_at_local: at(minutes) }, busy));
    const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) - DAY).toISOString();
    const to = new Date(Date.parse(from) + 4 * DAY).toISOString();
    const ask = async (tz: string, perDay: number) =>
      (await month(owner, `from=${from}&to=${to}&tz=${encodeURIComponent(tz)}&per_day=${perDay}`, busy)).body as {
        items: { title: string }[];
        more: { day: string; count: number }[];
      };
    const utcDay = at(0).slice(0, 10);
    const nextDay = at(120).slice(0, 10);
    const utc = await ask("UTC", 2);
    // In UTC, 22:00–23:30 are one day (4 events: 2 listed, 2 more) and 00:00 the next.
    expect(utc.items.map((i) => i.title)).toEqual(["Busy 0", "Busy 30", "Busy 120"]);
    expect(utc.more).toEqual([{ day: utcDay, count: 2 }]);
    const tokyo = await ask("Asia/Tokyo", 2);
    expect(tokyo.items.map((i) => i.title)).toEqual(["Busy 0", "Busy 30"]);
    expect(tokyo.more).toEqual([{ day: nextDay, count: 3 }]);
    expect((await ask("UTC", 200)).items).toHaveLength(made.length);
    const bad = await month(owner, `from=${from}&to=${to}&tz=Mars%2FOlympus`, busy);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("Choose a valid time zone");
  });

  it("refuses a range longer than 45 days or backwards, next to its end", async () => {
    const from = new Date().toISOString();
    const long = await month(member, `from=${from}&to=${new Date(Date.now() + 46 * DAY).toISOString()}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ message: "Ask for at most 45 days at once", field: "to" });
    const backwards = await month(member, `from=${from}&to=${new Date(Date.now() - DAY).toISOString()}`);
    expect(backwards.status).toBe(400);
    expect((await month(member, "from=yesterday&to=tomorrow")).status).toBe(400);
  });

  it("answers members 404 once the calendar is hidden; owners still see it", async () => {
    await t.database.pool.query(`UPDATE communities SET show_calendar = false WHERE id = $1`, [community.id]);
    try {
      const hidden = await month(member);
      expect(hidden.status).toBe(404);
      expect(hidden.body.error.message).toBe("This community has no calendar");
      expect((await month(owner)).status).toBe(200);
    } finally {
      await t.database.pool.query(`UPDATE communities SET show_calendar = true WHERE id = $1`, [community.id]);
    }
  });
});
