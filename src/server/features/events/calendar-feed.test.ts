import { randomBytes, randomUUID } from "node:crypto";
import type * as ZlibModule from "node:zlib";
import { gunzipSync } from "node:zlib";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CALENDAR_MESSAGES, calendarFeedPath } from "#shared/calendar";
import { eventOccurrences, eventSeries } from "#server/db/schema/index";
import { RATE_RULES } from "#server/lib/rate-limit";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "#server/test/harness";
import { FEED_PAST_DAYS } from "./calendar-feed";

/** How many times a calendar file was gzipped (the feed's gzip is made when it is built, not per fetch). */
const gzipped = vi.hoisted(() => ({ calendars: 0 }));
vi.mock("node:zlib", async (importOriginal) => {
  const actual = await importOriginal<typeof ZlibModule>();
  const gzipSync = ((data: ZlibModule.InputType, opts?: ZlibModule.ZlibOptions) => {
    if (typeof data === "string" && data.startsWith("BEGIN:VCALENDAR")) gzipped.calendars++;
    return actual.gzipSync(data, opts);
  }) as typeof actual.gzipSync;
  return { ...actual, default: { ...actual, gzipSync }, gzipSync };
});

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const users = {} as Record<"owner" | "member" | "outsider" | "other", User>;
const http = () => api(t.app);
const community = { open: "", secret: "" };
const events = {} as Record<
  "members" | "admins" | "tiers" | "cancelled" | "recent" | "old" | "secret" | "hidden" | "farFuture",
  string
>;

const DAY = 86_400_000;

async function newCommunity(name: string, visibility: "public" | "private", owner: User) {
  const id = randomUUID();
  const slug = `cal-${randomBytes(4).toString("hex")}`;
  await t.database.pool.query(
    `INSERT INTO communities (id, name, slug, visibility, invite_code, created_by) VALUES ($1, $2, $3, $4, $3, $5)`,
    [id, name, slug, visibility, owner.id],
  );
  await join(id, owner, "owner");
  return id;
}
const join = (communityId: string, who: User, role: string) =>
  t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
    communityId,
    who.id,
    role,
  ]);

/** An event of one occurrence, written straight into the tables (what the event service would store). */
async function newEvent(
  communityId: string,
  title: string,
  startsInDays: number,
  over: { audience?: "members" | "tiers" | "admins"; status?: "scheduled" | "cancelled"; tierIds?: string[] } = {},
) {
  const start = new Date(Date.now() + startsInDays * DAY);
  start.setUTCSeconds(0, 0);
  const common = {
    communityId,
    title,
    description: `About ${title}`,
    timeZone: "Europe/London",
    durationMinutes: 60,
    locationKind: "online" as const,
    meetingUrl: "https://meet.example/secret-room",
    audience: over.audience ?? "members",
    tierIds: over.tierIds ?? [],
  };
  const [series] = await t.database.db
    .insert(eventSeries)
    .values({ ...common, startsLocal: start.toISOString().slice(0, 16) })
    .returning({ id: eventSeries.id });
  const [occ] = await t.database.db
    .insert(eventOccurrences)
    .values({
      ...common,
      seriesId: series.id,
      slotAt: start,
      startsAt: start,
      endsAt: new Date(start.getTime() + 60 * 60_000),
      status: over.status ?? "scheduled",
    })
    .returning({ id: eventOccurrences.id });
  return occ.id;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["owner", "member", "outsider", "other"] as const) users[who] = await signedInUser(t);
  community.open = await newCommunity("Open Studio", "public", users.owner);
  community.secret = await newCommunity("Back Room", "private", users.other);
  await join(community.open, users.member, "member");
  await join(community.secret, users.member, "member");
  events.members = await newEvent(community.open, "Weekly call", 3);
  events.admins = await newEvent(community.open, "Admins sync", 4, { audience: "admins" });
  events.tiers = await newEvent(community.open, "VIP session", 5, { audience: "tiers", tierIds: [randomUUID()] });
  events.cancelled = await newEvent(community.open, "Cancelled call", 6, { status: "cancelled" });
  events.recent = await newEvent(community.open, "Last month's call", -30);
  events.old = await newEvent(community.open, "Ancient call", -(FEED_PAST_DAYS + 5));
  events.farFuture = await newEvent(community.open, "Next year's gala", 500);
  events.secret = await newEvent(community.secret, "Back room meeting", 2);
  // A community the member is not in.
  const elsewhere = await newCommunity("Elsewhere", "public", users.other);
  events.hidden = await newEvent(elsewhere, "Not yours", 2);
});
afterAll(() => t.close());

const pathOf = (url: string) => {
  expect(url.startsWith(`${ORIGIN}/calendar/`), url).toBe(true);
  return url.slice(ORIGIN.length);
};
const fetchFeed = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: pathOf(url), headers });
async function feedUids(url: string) {
  const res = await fetchFeed(url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const cal = new ICAL.Component(ICAL.parse(res.body));
  return new Map(
    cal.getAllSubcomponents("vevent").map((v) => [String(v.getFirstPropertyValue("uid")).replace(/@hearth$/, ""), v]),
  );
}
const createFeed = async (who: User) => {
  const res = await http().post("/api/me/calendar-feed", {}, { cookie: who.cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { url: string; created_at: string };
};
const expectGone = async (url: string) => {
  const res = await fetchFeed(url);
  expect(res.statusCode).toBe(404);
  expect(res.json().error.message).toBe(CALENDAR_MESSAGES.feedNotFound);
};

describe("the feed", () => {
  it("is null until made; made, it is an absolute URL on the public origin with a 43-character token", async () => {
    const none = await http().get("/api/me/calendar-feed", { cookie: users.member.cookie });
    expect(none.body).toEqual({ url: null, created_at: null });
    const feed = await createFeed(users.member);
    expect(feed.url).toMatch(/^http:\/\/localhost:3000\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const again = await http().get("/api/me/calendar-feed", { cookie: users.member.cookie });
    expect(again.body.url).toBe(feed.url);
    expect((await http().get("/api/me/calendar-feed")).status).toBe(401);
  });

  it("lists the events the person may attend in all their communities, cancelled ones marked, nothing else", async () => {
    const { url } = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body;
    const res = await fetchFeed(url);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(String(res.headers["cache-control"])).toMatch(/private/);
    expect(res.body).not.toContain("secret-room");
    expect(res.body).not.toContain("<html");
    const uids = await feedUids(url);
    expect([...uids.keys()].sort()).toEqual([events.members, events.cancelled, events.recent, events.secret].sort());
    // Not: the admins-only and tier events (a plain member without the tier), one that ended over
    // 60 days ago, one past the horizon, and a community the member is not in.
    expect(uids.get(events.cancelled)?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(uids.get(events.members)?.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(uids.get(events.secret)?.getFirstPropertyValue("summary")).toBe("Back room meeting");
  });

  it("an owner's feed has the admins-only event too", async () => {
    const uids = await feedUids((await createFeed(users.owner)).url);
    expect(uids.has(events.admins)).toBe(true);
    expect(uids.has(events.tiers)).toBe(true);
    expect(uids.has(events.secret)).toBe(false);
  });

  it("answers 304 to an unchanged feed's ETag, and a new ETag once an event changes", async () => {
    const { url } = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body;
    const first = await fetchFeed(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect((await fetchFeed(url, { "if-none-match": etag })).statusCode).toBe(304);
    await t.database.pool.query(
      `UPDATE event_occurrences SET title = 'Weekly call (moved)', updated_at = now() + interval '1 second' WHERE id = $1`,
      [events.members],
    );
    // Built feeds are kept until the database announces the change (to every process, a moment later).
    await vi.waitFor(
      async () => {
        const changed = await fetchFeed(url, { "if-none-match": etag });
        expect(changed.statusCode).toBe(200);
        expect(changed.body).toContain("Weekly call (moved)");
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("goes gzipped, made once per build, to an app that accepts gzip; the same text and ETag as the plain feed", async () => {
    const { url } = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body;
    // Notes that do not shrink, so the gzipped feed is over the compression hook's 1 KB threshold too.
    const notes = randomBytes(1500).toString("hex");
    await t.database.pool.query(
      `UPDATE event_occurrences SET description = $2, updated_at = now() + interval '1 second' WHERE id = $1`,
      [events.recent, notes],
    );
    const plain = await vi.waitFor(
      async () => {
        const res = await fetchFeed(url);
        expect(res.statusCode).toBe(200);
        expect(res.body.replace(/\r\n /g, "")).toContain(notes);
        return res;
      },
      { timeout: 10_000, interval: 50 },
    );
    const builds = gzipped.calendars;
    expect(builds).toBeGreaterThan(0);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    const zipped = await fetchFeed(url, { "accept-encoding": "gzip" });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(String(zipped.headers.vary)).toMatch(/accept-encoding/i);
    expect(zipped.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    // Compressed once only: it unzips to exactly the plain feed (gzipped twice, it would unzip to gzip).
    expect(gunzipSync(zipped.rawPayload).toString("utf8")).toBe(plain.body);
    expect(Number(zipped.headers["content-length"])).toBe(zipped.rawPayload.length);
    expect(zipped.rawPayload.length).toBeGreaterThan(1024);
    // The gzip kept with the built feed: the next fetch gets the very same bytes.
    const again = await fetchFeed(url, { "accept-encoding": "gzip" });
    expect(again.rawPayload.equals(zipped.rawPayload)).toBe(true);
    expect(gzipped.calendars).toBe(builds);
    // Gzip among others, or the wildcard, is gzip; refused (q=0) or not offered, the plain text.
    const offered = await fetchFeed(url, { "accept-encoding": "br;q=1.0, gzip;q=0.8, *;q=0.1" });
    expect(offered.headers["content-encoding"]).toBe("gzip");
    expect(offered.rawPayload.equals(zipped.rawPayload)).toBe(true);
    expect((await fetchFeed(url, { "accept-encoding": "*" })).headers["content-encoding"]).toBe("gzip");
    for (const refused of ["gzip;q=0", "identity", "deflate"]) {
      const res = await fetchFeed(url, { "accept-encoding": refused });
      expect(res.headers["content-encoding"], refused).toBeUndefined();
      expect(res.body, refused).toBe(plain.body);
    }
    // An unchanged feed still answers 304, gzip accepted or not.
    const etag = String(plain.headers.etag);
    const notModified = await fetchFeed(url, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    // A HEAD has the headers of the gzipped GET and no body.
    const head = await t.app.inject({ method: "HEAD", url: pathOf(url), headers: { "accept-encoding": "gzip" } });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers.etag).toBe(etag);
    expect(head.rawPayload.length).toBe(0);
  });

  it("gzips the changed feed once an event changes", async () => {
    const { url } = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body;
    const before = await fetchFeed(url, { "accept-encoding": "gzip" });
    expect(before.headers["content-encoding"]).toBe("gzip");
    const builds = gzipped.calendars;
    // A new description for last month's call (other tests read the titles).
    const about = `Notes ${randomBytes(4).toString("hex")}`;
    expect(gunzipSync(before.rawPayload).toString("utf8")).not.toContain(about);
    await t.database.pool.query(
      `UPDATE event_occurrences SET description = $2, updated_at = now() + interval '2 seconds' WHERE id = $1`,
      [events.recent, about],
    );
    await vi.waitFor(
      async () => {
        const after = await fetchFeed(url, { "accept-encoding": "gzip" });
        expect(after.statusCode).toBe(200);
        expect(after.headers["content-encoding"]).toBe("gzip");
        expect(after.headers.etag).not.toBe(before.headers.etag);
        expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
        const text = gunzipSync(after.rawPayload).toString("utf8");
        expect(text).toContain(about);
        expect(text).toBe((await fetchFeed(url)).body);
        expect(gzipped.calendars).toBeGreaterThan(builds);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("another person cannot see or turn off someone's feed", async () => {
    const mine = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body.url;
    expect((await http().get("/api/me/calendar-feed", { cookie: users.outsider.cookie })).body.url).toBeNull();
    expect((await http().delete("/api/me/calendar-feed", { cookie: users.outsider.cookie })).status).toBe(204);
    expect((await fetchFeed(mine)).statusCode).toBe(200);
    const theirs = await createFeed(users.outsider);
    expect(theirs.url).not.toBe(mine);
    expect((await feedUids(theirs.url)).size).toBe(0);
  });

  it("refuses a cross-site request to make or turn off a feed", async () => {
    const cross = { cookie: users.member.cookie, headers: { origin: "https://evil.example" } };
    expect((await http().post("/api/me/calendar-feed", {}, cross)).status).toBe(403);
    expect((await http().delete("/api/me/calendar-feed", cross)).status).toBe(403);
    const siteHeader = { cookie: users.member.cookie, headers: { "sec-fetch-site": "cross-site" } };
    expect((await http().delete("/api/me/calendar-feed", siteHeader)).status).toBe(403);
    expect((await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body.url).not.toBeNull();
  });

  it("losing access to a community removes its events at the next fetch", async () => {
    const { url } = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body;
    expect((await feedUids(url)).has(events.secret)).toBe(true);
    await t.database.pool.query(`DELETE FROM community_members WHERE community_id = $1 AND user_id = $2`, [
      community.secret,
      users.member.id,
    ]);
    // The database announces it; each process drops the feeds it kept (a moment later).
    const soon = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
    await soon(async () => {
      const uids = await feedUids(url);
      expect(uids.has(events.secret)).toBe(false);
      expect(uids.has(events.members)).toBe(true);
    });
    // The community turning its calendar off hides its events from members too.
    await t.database.pool.query(`UPDATE communities SET show_calendar = false WHERE id = $1`, [community.open]);
    await soon(async () => expect((await feedUids(url)).size).toBe(0));
    await t.database.pool.query(`UPDATE communities SET show_calendar = true WHERE id = $1`, [community.open]);
  });

  it("a new link stops the old one; turning it off stops it; unknown tokens are 404", async () => {
    const old = (await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body.url;
    const fresh = await createFeed(users.member);
    expect(fresh.url).not.toBe(old);
    await expectGone(old);
    expect((await feedUids(fresh.url)).has(events.members)).toBe(true);

    const off = await http().delete("/api/me/calendar-feed", { cookie: users.member.cookie });
    expect(off.status).toBe(204);
    await expectGone(fresh.url);
    expect((await http().get("/api/me/calendar-feed", { cookie: users.member.cookie })).body.url).toBeNull();

    await expectGone(`${ORIGIN}${calendarFeedPath(randomBytes(32).toString("base64url"))}`);
    await expectGone(`${ORIGIN}/calendar/short.ics`);
    const noSuffix = await t.app.inject({ method: "GET", url: pathOf(fresh.url).replace(/\.ics$/, "") });
    expect(noSuffix.statusCode).toBe(404);
  });
});

describe("one event's .ics", () => {
  const ics = (id: string, who?: User) => http().get(`/api/events/${id}/ics`, { cookie: who?.cookie });

  it("is a download for those who see the event", async () => {
    const res = await ics(events.members, users.member);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="weekly-call-moved.ics"');
    const vevents = new ICAL.Component(ICAL.parse(res.raw.body)).getAllSubcomponents("vevent");
    expect(vevents).toHaveLength(1);
    expect(vevents[0].getFirstPropertyValue("uid")).toBe(`${events.members}@hearth`);
    expect(res.raw.body).not.toContain("secret-room");
  });

  it("answers a private community's event to a non-member exactly as a missing event", async () => {
    const missing = await ics(randomUUID(), users.outsider);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(CALENDAR_MESSAGES.notFound);
    for (const id of [events.secret, events.hidden]) {
      const res = await ics(id, users.outsider);
      expect({ status: res.status, body: res.body }).toEqual({ status: missing.status, body: missing.body });
    }
    // An admins-only event to a plain member, and a made-up id.
    expect((await ics(events.admins, users.member)).body).toEqual(missing.body);
    expect((await ics("not-an-id", users.member)).body).toEqual(missing.body);
    expect((await ics(events.admins, users.owner)).status).toBe(200);
    expect((await ics(events.members)).status).toBe(401);
  });
});

describe("fetching a feed too often", () => {
  it(`answers 429 past ${RATE_RULES.calendarFeedPerToken.limit} fetches of one feed in its window; other feeds are unaffected`, async () => {
    const limited = await createTestApp({ rateLimits: true });
    try {
      const [a, b] = [await signedInUser(limited), await signedInUser(limited)];
      const feedOf = async (who: User) =>
        (await api(limited.app).post("/api/me/calendar-feed", {}, { cookie: who.cookie })).body.url as string;
      const [urlA, urlB] = [await feedOf(a), await feedOf(b)];
      const get = (url: string) => limited.app.inject({ method: "GET", url: pathOf(url) });
      const { limit } = RATE_RULES.calendarFeedPerToken;
      let served = 0;
      let refused = false;
      while (!refused && served <= 2 * limit) {
        const status = (await get(urlA)).statusCode;
        if (status === 429) refused = true;
        else {
          expect(status).toBe(200);
          served++;
        }
      }
      expect(refused).toBe(true);
      // Exactly the limit, or (when a window boundary fell inside the loop) the rest of one window and a full one.
      expect(served).toBeGreaterThanOrEqual(limit);
      expect(served).toBeLessThan(2 * limit);
      expect((await get(urlA)).statusCode).toBe(429);
      expect((await get(urlB)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
