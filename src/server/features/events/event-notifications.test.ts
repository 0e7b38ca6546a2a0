import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIGEST_QUEUE } from "#server/lib/notifications";
import { api, createTestApp, mailTo, readUntil, signedInUser, type TestApp } from "#server/test/harness";
import { notifyEventCancelled, notifyEventChanged, notifyEventCreated } from "./event-notifications";

/*
 * Event notifications (issue 19): who is told about a new, changed or cancelled event. The events
 * are inserted directly, and the functions the event service calls are called in a transaction as
 * it does, so these tests hold whatever the routes do around them.
 */

let t: TestApp;
let http: ReturnType<typeof api>;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type Item = { id: string; type: string; title: string; body: string; href: string; actor: { username: string } | null };

const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);
const user = (name?: string) => signedInUser(t, name ? { name } : {});

/** A community of `owner`, joined by `members` while public, then made private. */
async function privateCommunity(owner: User, members: User[]) {
  const c = (
    await http.post("/api/communities", { name: `Calendar ${Date.now().toString(36)}` }, { cookie: owner.cookie })
  ).body as { id: string };
  for (const m of members) {
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: m.cookie })).status).toBe(200);
  }
  expect(
    (await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie })).status,
  ).toBe(200);
  return c;
}

/** A series of `count` weekly occurrences, the first `startsInMinutes` from now. */
async function makeEvent(
  communityId: string,
  createdBy: string | null,
  opts: { title?: string; audience?: "members" | "admins"; count?: number; startsInMinutes?: number } = {},
) {
  const title = opts.title ?? "Weekly call";
  const count = opts.count ?? 1;
  const series = await q(
    `INSERT INTO event_series (community_id, created_by, title, time_zone, duration_minutes, location_kind, meeting_url,
                               audience, starts_local, recurrence)
     VALUES ($1, $2, $3, 'Europe/London', 60, 'online', 'https://meet.example.test/x', $4, '2030-01-01T10:00', $5)
     RETURNING id`,
    [
      communityId,
      createdBy,
      title,
      opts.audience ?? "members",
      count > 1
        ? JSON.stringify({
            frequency: "weekly",
            interval: 1,
            weekdays: ["TU"],
            monthly_mode: "day_of_month",
            end: "after",
            until: null,
            count,
          })
        : null,
    ],
  );
  const seriesId = series.rows[0].id as string;
  const occ = await q(
    `INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                    duration_minutes, location_kind, meeting_url, audience)
     SELECT $1, $2, s, s, s + interval '1 hour', $3, 'Europe/London', 60, 'online', 'https://meet.example.test/x', $4
       FROM (SELECT date_trunc('minute', now()) + make_interval(mins => $5) + make_interval(days => 7 * i) AS s
               FROM generate_series(0, $6 - 1) AS i) x
     ORDER BY s
     RETURNING id`,
    [seriesId, communityId, title, opts.audience ?? "members", opts.startsInMinutes ?? 3 * 24 * 60, count],
  );
  return { seriesId, occurrenceIds: occ.rows.map((r) => r.id as string) };
}

const rsvp = (occurrenceId: string, u: User, status = "going") =>
  q(`INSERT INTO event_rsvps (occurrence_id, user_id, status) VALUES ($1, $2, $3)`, [occurrenceId, u.id, status]);

const inTx = (fn: (tx: Parameters<Parameters<TestApp["database"]["db"]["transaction"]>[0]>[0]) => Promise<void>) =>
  t.database.db.transaction(fn);

async function items(u: User, type?: string): Promise<Item[]> {
  const res = await http.get("/api/notifications?limit=50", { cookie: u.cookie });
  expect(res.status).toBe(200);
  return (res.body.items as Item[]).filter((i) => !type || i.type === type);
}

/** Every notification row of a user of a type, read or not, visible or not. */
const rows = async (u: User, type: string) =>
  (await q(`SELECT * FROM notifications WHERE user_id = $1 AND type = $2`, [u.id, type])).rows;

const eventsOff = async (u: User, communityId: string) =>
  expect(
    (
      await http.patch(
        "/api/me/notification-settings",
        { community_settings: { [communityId]: { events: false } } },
        { cookie: u.cookie },
      )
    ).status,
  ).toBe(200);

describe("a new event", () => {
  it("tells each member who sees it, once per series, linking to its first occurrence; not its creator, not someone with events off, not a non-member", async () => {
    const owner = await user("Olive Owner");
    const [member, quiet] = [await user(), await user()];
    const outsider = await user();
    const c = await privateCommunity(owner, [member, quiet]);
    await eventsOff(quiet, c.id);

    const e = await makeEvent(c.id, owner.id, { title: "Weekly call", count: 4 });
    await inTx((tx) => notifyEventCreated(tx, e.seriesId));

    const got = await items(member, "event_new");
    expect(got).toHaveLength(1);
    expect(got[0].title).toBe("Olive Owner scheduled Weekly call");
    expect(got[0].body).toMatch(/\(Europe\/London\), then repeating$/);
    expect(got[0].href).toBe(`/community/${c.id}?tab=calendar&event=${e.occurrenceIds[0]}`);
    expect(got[0].actor?.username).toBe(owner.username);
    expect(await rows(quiet, "event_new")).toHaveLength(0);
    expect(await rows(outsider, "event_new")).toHaveLength(0);
    expect(await rows(owner, "event_new")).toHaveLength(0);
  });

  it("a title that spells {actor} is shown as typed: only the template's {actor} names the creator", async () => {
    const owner = await user("Olive Owner");
    const member = await user();
    const c = await privateCommunity(owner, [member]);
    const e = await makeEvent(c.id, owner.id, { title: "Ask {actor} anything" });
    await inTx((tx) => notifyEventCreated(tx, e.seriesId));
    expect((await items(member, "event_new"))[0].title).toBe("Olive Owner scheduled Ask {actor} anything");
  });

  it("for admins only: reaches only the owner and admins, and leaves a member's bell once they lose access", async () => {
    const owner = await user();
    const [admin, member] = [await user(), await user()];
    const c = await privateCommunity(owner, [admin, member]);
    await q(`UPDATE community_members SET role = 'admin' WHERE community_id = $1 AND user_id = $2`, [c.id, admin.id]);
    // Made by an admin (the owner is told too), for admins.
    const e = await makeEvent(c.id, admin.id, { title: "Admin sync", audience: "admins" });
    await inTx((tx) => notifyEventCreated(tx, e.seriesId));
    expect((await items(owner, "event_new")).map((i) => i.title)).toEqual([
      expect.stringMatching(/ scheduled Admin sync$/),
    ]);
    expect(await rows(member, "event_new")).toHaveLength(0);
    expect(await rows(admin, "event_new")).toHaveLength(0);

    // An event for members reaches the member; when they leave the community it is gone from their bell.
    const open = await makeEvent(c.id, owner.id, { title: "Open call" });
    await inTx((tx) => notifyEventCreated(tx, open.seriesId));
    expect((await items(member, "event_new")).map((i) => i.title)).toEqual([expect.stringMatching(/Open call$/)]);
    await q(`DELETE FROM community_members WHERE community_id = $1 AND user_id = $2`, [c.id, member.id]);
    expect(await items(member, "event_new")).toHaveLength(0);
    // The bell's count is kept per process (decision 0024): a removal made by hand in SQL reaches it
    // when the database's announcement arrives, a moment later.
    const unread = () =>
      http.get("/api/notifications/unread-count", { cookie: member.cookie }).then((r) => r.body.unread_count as number);
    expect(await readUntil(unread, (n) => n === 0)).toBe(0);
  });

  it("is mailed in the digest with a link that opens the event", async () => {
    const owner = await user();
    const member = await user();
    const c = await privateCommunity(owner, [member]);
    const e = await makeEvent(c.id, owner.id, { title: "Digest party" });
    await inTx((tx) => notifyEventCreated(tx, e.seriesId));
    await q(`UPDATE jobs SET run_at = now() WHERE queue = $1 AND payload->>'userId' = $2`, [DIGEST_QUEUE, member.id]);
    await t.app.ctx.worker.runOnce();
    const [mail] = await mailTo(t, member.email);
    expect(mail?.text).toContain("Digest party");
    expect(mail?.text).toContain(`/community/${c.id}?tab=calendar&event=${e.occurrenceIds[0]}`);
  });
});

describe("a changed or cancelled event", () => {
  it("a change reaches those going or waitlisted on the changed occurrences, not other members", async () => {
    const owner = await user();
    const [going, waiting, other, quiet] = [await user(), await user(), await user(), await user()];
    const c = await privateCommunity(owner, [going, waiting, other, quiet]);
    await eventsOff(quiet, c.id);
    const e = await makeEvent(c.id, owner.id, { title: "Book club", count: 3 });
    await rsvp(e.occurrenceIds[1], going);
    await rsvp(e.occurrenceIds[2], going);
    await rsvp(e.occurrenceIds[1], waiting, "waitlisted");
    await rsvp(e.occurrenceIds[1], quiet);
    await rsvp(e.occurrenceIds[1], other, "not_going");

    await inTx((tx) => notifyEventChanged(tx, e.occurrenceIds.slice(1)));
    const [n] = await items(going, "event_changed");
    expect(n.title).toBe("Event changed: Book club");
    expect(n.body).toMatch(/^2 upcoming dates changed, next: /);
    expect(n.href).toBe(`/community/${c.id}?tab=calendar&event=${e.occurrenceIds[1]}`);
    expect(await items(going, "event_changed")).toHaveLength(1);
    expect(await items(waiting, "event_changed")).toHaveLength(1);
    expect(await rows(other, "event_changed")).toHaveLength(0);
    expect(await rows(quiet, "event_changed")).toHaveLength(0);
    expect(await rows(owner, "event_changed")).toHaveLength(0);
  });

  it("cancelling one occurrence reaches those going to it; cancelling what is left reaches every member who sees it", async () => {
    const owner = await user();
    const [going, other, outsider] = [await user(), await user(), await user()];
    const c = await privateCommunity(owner, [going, other]);
    const e = await makeEvent(c.id, owner.id, { title: "Yoga", count: 3 });
    await rsvp(e.occurrenceIds[0], going);
    await q(`INSERT INTO event_rsvps (occurrence_id, user_id, status) VALUES ($1, $2, 'going')`, [
      e.occurrenceIds[0],
      outsider.id,
    ]);

    await q(`UPDATE event_occurrences SET status = 'cancelled' WHERE id = $1`, [e.occurrenceIds[0]]);
    await inTx((tx) => notifyEventCancelled(tx, [e.occurrenceIds[0]]));
    const [n] = await items(going, "event_cancelled");
    expect(n.title).toBe("Cancelled: Yoga");
    expect(n.href).toBe(`/community/${c.id}?tab=calendar&event=${e.occurrenceIds[0]}`);
    expect(await rows(other, "event_cancelled")).toHaveLength(0);
    // Someone with an RSVP row but no membership (access lost) is not told.
    expect(await rows(outsider, "event_cancelled")).toHaveLength(0);

    const rest = e.occurrenceIds.slice(1);
    await q(`UPDATE event_occurrences SET status = 'cancelled' WHERE id = ANY($1::uuid[])`, [rest]);
    // The service passes who cancelled: they are not told about their own act.
    await inTx((tx) => notifyEventCancelled(tx, rest, owner.id));
    const forOther = await items(other, "event_cancelled");
    expect(forOther).toHaveLength(1);
    expect(forOther[0].body).toMatch(/^2 upcoming dates cancelled, from /);
    expect(await items(going, "event_cancelled")).toHaveLength(2);
    expect(await rows(outsider, "event_cancelled")).toHaveLength(0);
    expect(await rows(owner, "event_cancelled")).toHaveLength(0);
  });

  it("says nothing about occurrences that have ended", async () => {
    const owner = await user();
    const going = await user();
    const c = await privateCommunity(owner, [going]);
    const e = await makeEvent(c.id, owner.id, { title: "Yesterday", startsInMinutes: -24 * 60 });
    await rsvp(e.occurrenceIds[0], going);
    await inTx((tx) => notifyEventChanged(tx, e.occurrenceIds));
    await inTx((tx) => notifyEventCancelled(tx, e.occurrenceIds));
    expect(await rows(going, "event_changed")).toHaveLength(0);
    expect(await rows(going, "event_cancelled")).toHaveLength(0);
  });
});

describe("through the event routes", () => {
  it("creating an event tells a member; moving it tells those going; cancelling it tells every member", async () => {
    const owner = await user();
    const [going, other] = [await user(), await user()];
    const c = await privateCommunity(owner, [going, other]);
    const wallClock = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);
    const created = await http.post(
      `/api/communities/${c.id}/events`,
      {
        title: "Routed call",
        starts_at_local: wallClock(2 * 86_400_000),
        time_zone: "UTC",
        duration_minutes: 60,
        location_kind: "online",
        meeting_url: "https://meet.example.test/routed",
      },
      { cookie: owner.cookie },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const occurrenceId = created.body.id as string;
    const [n] = await items(going, "event_new");
    expect(n.href).toBe(`/community/${c.id}?tab=calendar&event=${occurrenceId}`);
    expect(await items(other, "event_new")).toHaveLength(1);
    expect(await rows(owner, "event_new")).toHaveLength(0);

    expect(
      (await http.put(`/api/events/${occurrenceId}/rsvp`, { status: "going" }, { cookie: going.cookie })).status,
    ).toBe(200);
    const moved = await http.patch(
      `/api/events/${occurrenceId}`,
      { scope: "one", starts_at_local: wallClock(3 * 86_400_000) },
      { cookie: owner.cookie },
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await items(going, "event_changed")).map((i) => i.title)).toEqual(["Event changed: Routed call"]);
    expect(await rows(other, "event_changed")).toHaveLength(0);

    const cancelled = await http.post(`/api/events/${occurrenceId}/cancel`, { scope: "one" }, { cookie: owner.cookie });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await items(going, "event_cancelled")).map((i) => i.title)).toEqual(["Cancelled: Routed call"]);
    expect((await items(other, "event_cancelled")).map((i) => i.title)).toEqual(["Cancelled: Routed call"]);
  });
});
