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
const RANGE = (() => {
  const from = new Date(Date.now() - DAY).toISOString();
  const to = new Date(Date.now() + 30 * DAY).toISOString();
  return `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
})();
const month = async (who: User | null, query = RANGE) =>
  http().get(`/api/communities/${community.id}/calendar?${query}`, who ? { cookie: who.cookie } : {});

async function create(over: Record<string, unknown>) {
  const res = await http().post(
    `/api/communities/${community.id}/events`,
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
      `SELECT id FROM event_occurrences WHERE series_id = $1 AND starts_at < now() + interval '30 days' ORDER BY starts_at`,
      [weekly.series_id],
    );
    expect(seen.map((i) => i.id)).toEqual(occurrences.rows.map((r) => r.id));
    expect(seen.every((i) => i.title === "Weekly call" && i.status === "scheduled")).toBe(true);
    expect([...seen].sort((a, b) => a.starts_at.localeCompare(b.starts_at))).toEqual(seen);
    const managed = (await month(owner)).body.items as { id: string }[];
    expect(managed.map((i) => i.id)).toContain(staff.id);
    expect(managed).toHaveLength(seen.length + 1);
    expect((await month(outsider)).body).toEqual({ items: [] });
    expect((await month(null)).body).toEqual({ items: [] });
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
