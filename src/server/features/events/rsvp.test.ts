import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALENDAR_MESSAGES as M } from "#shared/calendar";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { promotedTitle, promoteWaitlist } from "./rsvp";

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const users = {} as Record<"owner" | "admin" | "member" | "outsider", User>;
let community: { id: string };
let hidden: { id: string };
const http = () => api(t.app);
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

const MIN = 60_000;

/** An event of one occurrence, inserted directly; returns the occurrence's id. */
async function newEvent(
  communityId: string,
  opts: {
    capacity?: number | null;
    audience?: "members" | "tiers" | "admins";
    tierIds?: string[];
    startsIn?: number;
    status?: "scheduled" | "cancelled";
    title?: string;
  } = {},
): Promise<string> {
  const starts = new Date(Date.now() + (opts.startsIn ?? 24 * 60 * MIN));
  const ends = new Date(starts.getTime() + 60 * MIN);
  const fields = [
    opts.title ?? "Office hours",
    "Europe/Berlin",
    60,
    "online",
    "https://meet.example.com/hearth",
    opts.audience ?? "members",
    opts.tierIds ?? [],
    opts.capacity ?? null,
  ];
  const [series] = await q<{ id: string }>(
    `INSERT INTO event_series (community_id, title, time_zone, duration_minutes, location_kind, meeting_url, audience,
                               tier_ids, capacity, starts_local)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '2030-01-01T10:00') RETURNING id`,
    [communityId, ...fields],
  );
  const [occurrence] = await q<{ id: string }>(
    `INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                    duration_minutes, location_kind, meeting_url, audience, tier_ids, capacity, status)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [series.id, communityId, starts, ends, ...fields, opts.status ?? "scheduled"],
  );
  return occurrence.id;
}

const rsvp = (occurrenceId: string, status: string, cookie?: string) =>
  http().put(`/api/events/${occurrenceId}/rsvp`, { status }, cookie ? { cookie } : {});

/** The occurrence's stored counters and the rows they count. */
async function counts(occurrenceId: string) {
  const [row] = await q<{ going_count: number; waitlist_count: number; going: number; waitlisted: number }>(
    `SELECT o.going_count, o.waitlist_count,
            (SELECT count(*)::int FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'going') AS going,
            (SELECT count(*)::int FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'waitlisted') AS waitlisted
       FROM event_occurrences o WHERE o.id = $1`,
    [occurrenceId],
  );
  return row;
}

/** The waitlist, first in line first. */
const line = async (occurrenceId: string) =>
  (
    await q<{ user_id: string }>(
      `SELECT user_id FROM event_rsvps WHERE occurrence_id = $1 AND status = 'waitlisted' ORDER BY seq`,
      [occurrenceId],
    )
  ).map((r) => r.user_id);

const join = (communityId: string, userId: string, role = "member") =>
  q(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [communityId, userId, role]);

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["owner", "admin", "member", "outsider"] as const) users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Event hall" }, { cookie: users.owner.cookie })).body;
  hidden = (await http().post("/api/communities", { name: "Back room" }, { cookie: users.owner.cookie })).body;
  await q(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [hidden.id]);
  await join(community.id, users.admin.id, "admin");
  await join(community.id, users.member.id);
  await join(hidden.id, users.member.id);
});
afterAll(() => t.close());

describe("going and not going", () => {
  it("answers going, keeps the seat when asked twice, and gives it up", async () => {
    const id = await newEvent(community.id);
    const going = await rsvp(id, "going", users.member.cookie);
    expect(going.status, JSON.stringify(going.body)).toBe(200);
    expect(going.body).toEqual({ rsvp: "going", waitlist_position: null, going_count: 1, waitlist_count: 0 });
    const [before] = await q<{ seq: number }>(`SELECT seq FROM event_rsvps WHERE occurrence_id = $1`, [id]);

    const again = await rsvp(id, "going", users.member.cookie);
    expect(again.body).toEqual({ rsvp: "going", waitlist_position: null, going_count: 1, waitlist_count: 0 });
    const [after] = await q<{ seq: number }>(`SELECT seq FROM event_rsvps WHERE occurrence_id = $1`, [id]);
    expect(after.seq).toBe(before.seq);

    const no = await rsvp(id, "not_going", users.member.cookie);
    expect(no.body).toEqual({ rsvp: "not_going", waitlist_position: null, going_count: 0, waitlist_count: 0 });
    expect((await rsvp(id, "not_going", users.member.cookie)).body).toMatchObject({
      rsvp: "not_going",
      going_count: 0,
    });
    expect(await counts(id)).toEqual({ going_count: 0, waitlist_count: 0, going: 0, waitlisted: 0 });

    // Not going first, then going: a seat.
    const owner = await rsvp(id, "not_going", users.owner.cookie);
    expect(owner.body.rsvp).toBe("not_going");
    expect((await rsvp(id, "going", users.owner.cookie)).body).toMatchObject({ rsvp: "going", going_count: 1 });
  });

  it("asks for sign-in and a valid choice", async () => {
    const id = await newEvent(community.id);
    expect((await rsvp(id, "going")).status).toBe(401);
    expect((await rsvp(id, "waitlisted", users.member.cookie)).status).toBe(400);
    expect((await rsvp(id, "maybe", users.member.cookie)).status).toBe(400);
    expect(await counts(id)).toEqual({ going_count: 0, waitlist_count: 0, going: 0, waitlisted: 0 });
  });

  it("waitlists when full, keeps the place when asked twice, and leaves the line", async () => {
    const id = await newEvent(community.id, { capacity: 1 });
    expect((await rsvp(id, "going", users.owner.cookie)).body.rsvp).toBe("going");
    const waiting = await rsvp(id, "going", users.member.cookie);
    expect(waiting.body).toEqual({ rsvp: "waitlisted", waitlist_position: 1, going_count: 1, waitlist_count: 1 });
    const [seq] = await q<{ seq: number }>(`SELECT seq FROM event_rsvps WHERE occurrence_id = $1 AND user_id = $2`, [
      id,
      users.member.id,
    ]);
    expect((await rsvp(id, "going", users.admin.cookie)).body).toMatchObject({
      rsvp: "waitlisted",
      waitlist_position: 2,
    });
    expect((await rsvp(id, "going", users.member.cookie)).body).toEqual({ ...waiting.body, waitlist_count: 2 });
    const [same] = await q<{ seq: number }>(`SELECT seq FROM event_rsvps WHERE occurrence_id = $1 AND user_id = $2`, [
      id,
      users.member.id,
    ]);
    expect(same.seq).toBe(seq.seq);
    // Leaving the line moves the next one up.
    expect((await rsvp(id, "not_going", users.member.cookie)).body).toEqual({
      rsvp: "not_going",
      waitlist_position: null,
      going_count: 1,
      waitlist_count: 1,
    });
    expect(await line(id)).toEqual([users.admin.id]);
    expect(await counts(id)).toEqual({ going_count: 1, waitlist_count: 1, going: 1, waitlisted: 1 });
  });
});

describe("a full event under load", () => {
  let id: string;
  let crowd: User[];
  let answers: { status: number; body: { rsvp: string; waitlist_position: number | null } }[];

  beforeAll(async () => {
    crowd = await Promise.all(Array.from({ length: 50 }, () => signedInUser(t)));
    for (const u of crowd) await join(community.id, u.id);
    id = await newEvent(community.id, { capacity: 10, title: "Small workshop" });
    answers = await Promise.all(crowd.map((u) => rsvp(id, "going", u.cookie)));
  }, 60_000);

  it("seats exactly 10 of 50 concurrent RSVPs and lines up the other 40 in order", async () => {
    expect(answers.map((a) => a.status)).toEqual(crowd.map(() => 200));
    expect(answers.filter((a) => a.body.rsvp === "going").length).toBe(10);
    expect(answers.filter((a) => a.body.rsvp === "waitlisted").length).toBe(40);
    expect(await counts(id)).toEqual({ going_count: 10, waitlist_count: 40, going: 10, waitlisted: 40 });
    // Each waitlisted answer's position is its place in the line (seq order: the order they took the lock).
    const order = await line(id);
    const positions = crowd
      .map((u, i) => ({ user: u.id, position: answers[i].body.waitlist_position }))
      .filter((p) => p.position !== null)
      .sort((a, b) => a.position! - b.position!);
    expect(positions.map((p) => p.position)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(positions.map((p) => p.user)).toEqual(order);
  });

  it("gives a freed seat to the first in line, tells them, and keeps the counters exact", async () => {
    const first = (await line(id))[0];
    const seated = crowd.find((_u, i) => answers[i].body.rsvp === "going")!;
    const res = await rsvp(id, "not_going", seated.cookie);
    expect(res.body).toEqual({ rsvp: "not_going", waitlist_position: null, going_count: 10, waitlist_count: 39 });
    const [promoted] = await q<{ status: string }>(
      `SELECT status FROM event_rsvps WHERE occurrence_id = $1 AND user_id = $2`,
      [id, first],
    );
    expect(promoted.status).toBe("going");
    expect(await counts(id)).toEqual({ going_count: 10, waitlist_count: 39, going: 10, waitlisted: 39 });
    const told = await q<{ title: string; type: string }>(
      `SELECT title, type FROM notifications WHERE user_id = $1 AND data->>'occurrence_id' = $2`,
      [first, id],
    );
    expect(told).toEqual([{ title: promotedTitle("Small workshop"), type: "event_changed" }]);
    // The one who cancelled comes back: the end of the line.
    const back = await rsvp(id, "going", seated.cookie);
    expect(back.body).toEqual({ rsvp: "waitlisted", waitlist_position: 40, going_count: 10, waitlist_count: 40 });
    expect((await line(id)).at(-1)).toBe(seated.id);
  });

  it("moves the next in line up when the capacity is raised (promoteWaitlist)", async () => {
    const next = (await line(id)).slice(0, 3);
    const promoted = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE event_occurrences SET capacity = 13 WHERE id = ${id}`);
      return promoteWaitlist(tx, id);
    });
    expect(promoted.sort()).toEqual([...next].sort());
    expect(await counts(id)).toEqual({ going_count: 13, waitlist_count: 37, going: 13, waitlisted: 37 });
    expect((await line(id)).slice(0, 1)).not.toContain(next[0]);
    // Nothing to do: nothing changes.
    expect(await t.database.db.transaction((tx) => promoteWaitlist(tx, id))).toEqual([]);
    // No capacity: everyone in line goes.
    const all = await line(id);
    const rest = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE event_occurrences SET capacity = NULL WHERE id = ${id}`);
      return promoteWaitlist(tx, id);
    });
    expect(rest.length).toBe(all.length);
    expect(await counts(id)).toEqual({ going_count: 50, waitlist_count: 0, going: 50, waitlisted: 0 });
  });
});

describe("who may answer", () => {
  it("answers a private community's event to a non-member exactly as a missing one", async () => {
    const id = await newEvent(hidden.id);
    const res = await rsvp(id, "going", users.outsider.cookie);
    const ghost = await rsvp(randomUUID(), "going", users.outsider.cookie);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(ghost.body);
    expect(res.body.error.message).toBe(M.notFound);
    expect((await rsvp("not-an-id", "going", users.outsider.cookie)).body).toEqual(ghost.body);
    const list = await http().get(`/api/events/${id}/attendees`, { cookie: users.outsider.cookie });
    expect(list.status).toBe(404);
    expect(list.body.error.message).toBe(M.notFound);
    // A member of it answers.
    expect((await rsvp(id, "going", users.member.cookie)).body.rsvp).toBe("going");
    expect(await counts(id)).toMatchObject({ going_count: 1, going: 1 });
  });

  it("refuses a tiers event to a member without the tier (403) and an admins event is not there for them (404)", async () => {
    const tiers = await newEvent(community.id, { audience: "tiers", tierIds: [randomUUID()] });
    const refused = await rsvp(tiers, "going", users.member.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(M.notInvited);
    expect((await rsvp(tiers, "going", users.admin.cookie)).body.rsvp).toBe("going");
    expect(await counts(tiers)).toMatchObject({ going_count: 1, going: 1 });

    // Someone going who may no longer attend (the event moved to a tier) may still give up the seat.
    const moved = await newEvent(community.id, { capacity: 1 });
    expect((await rsvp(moved, "going", users.member.cookie)).body.rsvp).toBe("going");
    expect((await rsvp(moved, "going", users.admin.cookie)).body.rsvp).toBe("waitlisted");
    await q(`UPDATE event_occurrences SET audience = 'tiers', tier_ids = $2 WHERE id = $1`, [moved, [randomUUID()]]);
    expect((await rsvp(moved, "going", users.member.cookie)).status).toBe(403);
    const freed = await rsvp(moved, "not_going", users.member.cookie);
    expect(freed.body).toEqual({ rsvp: "not_going", waitlist_position: null, going_count: 1, waitlist_count: 0 });
    expect((await rsvp(moved, "not_going", users.member.cookie)).status).toBe(403);
    expect(await line(moved)).toEqual([]);

    const admins = await newEvent(community.id, { audience: "admins" });
    expect((await rsvp(admins, "going", users.member.cookie)).status).toBe(404);
    expect((await rsvp(admins, "going", users.admin.cookie)).status).toBe(200);
    // The calendar turned off: members no longer see events; admins still manage them.
    await q(`UPDATE communities SET show_calendar = false WHERE id = $1`, [community.id]);
    const off = await newEvent(community.id);
    try {
      expect((await rsvp(off, "going", users.member.cookie)).status).toBe(404);
      expect((await rsvp(off, "going", users.admin.cookie)).status).toBe(200);
    } finally {
      await q(`UPDATE communities SET show_calendar = true WHERE id = $1`, [community.id]);
    }
  });

  it("refuses cancelled and ended events (409)", async () => {
    const cancelled = await newEvent(community.id, { status: "cancelled" });
    const res = await rsvp(cancelled, "going", users.member.cookie);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.cancelled);
    const ended = await newEvent(community.id, { startsIn: -120 * MIN });
    const late = await rsvp(ended, "going", users.member.cookie);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(M.ended);
    // A running event still takes RSVPs.
    const live = await newEvent(community.id, { startsIn: -10 * MIN });
    expect((await rsvp(live, "going", users.member.cookie)).body.rsvp).toBe("going");
    expect(await counts(cancelled)).toMatchObject({ going: 0, waitlisted: 0 });
    expect(await counts(ended)).toMatchObject({ going: 0, waitlisted: 0 });
  });
});

describe("the attendee list", () => {
  it("shows who is going with names, in the order they said so, a page at a time, to any member", async () => {
    const people = await Promise.all(
      Array.from({ length: 5 }, (_, i) => signedInUser(t, { name: `Guest Number ${i}` })),
    );
    const id = await newEvent(community.id, { capacity: 4 });
    for (const p of people) {
      await join(community.id, p.id);
      expect((await rsvp(id, "going", p.cookie)).status).toBe(200);
    }
    const pages: { user_id: string; username: string; full_name: string; avatar_url: string | null }[][] = [];
    let cursor: string | null = null;
    const waitlists: number[] = [];
    do {
      const res = await http().get(`/api/events/${id}/attendees`, {
        cookie: users.member.cookie,
        query: { limit: "3", ...(cursor ? { cursor } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages.push(res.body.going);
      cursor = res.body.next_cursor;
      waitlists.push(res.body.waitlist_count);
    } while (cursor && pages.length < 5);
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    const listed = pages.flat();
    expect(listed.map((p) => p.user_id)).toEqual(people.slice(0, 4).map((p) => p.id));
    expect(listed.map((p) => p.full_name)).toEqual(people.slice(0, 4).map((_, i) => `Guest Number ${i}`));
    expect(listed[0]).toMatchObject({ username: people[0].username, avatar_url: null });
    expect(waitlists).toEqual([1, 1]);

    // Someone who leaves the community drops off the list; the anonymous get nothing.
    await q(`DELETE FROM community_members WHERE community_id = $1 AND user_id = $2`, [community.id, people[1].id]);
    const after = await http().get(`/api/events/${id}/attendees`, { cookie: users.member.cookie });
    expect(after.body.going.map((p: { user_id: string }) => p.user_id)).toEqual(
      [people[0], people[2], people[3]].map((p) => p.id),
    );
    expect(after.body.next_cursor).toBeNull();
    expect((await http().get(`/api/events/${id}/attendees`)).status).toBe(401);
  });
});
