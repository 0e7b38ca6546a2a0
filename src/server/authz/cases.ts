/**
 * How each entry of the expected table is asked (which request, on which object of the cell's
 * world) and what an allowed answer must show. The expected outcome itself is in expected.ts.
 */
import { createHash, randomUUID } from "node:crypto";
import { expect } from "vitest";
import { unsubscribeToken } from "#server/lib/notifications";
import type { TestApp } from "#server/test/harness";
import { ROLE_IN_WORLD, type Actor, type Identity, type Users, type World } from "./fixtures";

export type Req = {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  body?: unknown;
  /** A multipart upload (text fields first, then the file in `file`). */
  file?: { name: string; type: string; data: Buffer; fields?: Record<string, string> };
  /** The socket's address (default: loopback, as inject() sends). */
  remoteAddress?: string;
  /** A Server-Sent Events stream, read over a real connection. */
  stream?: true;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Res = { status: number; text: string; json: any };

export type CaseContext = { t: TestApp; users: Users; png: Buffer; svg: Buffer };

export type Case = {
  request: (w: World, actor: Actor, c: CaseContext) => Req;
  /** Runs before the cell's request (not before the request for a missing id). */
  prepare?: (w: World, c: CaseContext) => Promise<void>;
  /** Checks an allowed answer (label: the part of the table's token after ":"). */
  allowed?: (res: Res, ctx: { w: World; actor: Actor; label: string | null; c: CaseContext }) => unknown;
};

const own = (w: World) => w.posts.own ?? w.posts.pub;
const ownComment = (w: World) => w.comments.own ?? w.comments.other;
const idsOf = (items: { id: string }[]) => items.map((i) => i.id);
const userId = (c: CaseContext, actor: Actor) => (actor === "anonymous" ? null : c.users[actor].id);
const q = async <T>(c: CaseContext, text: string, values: unknown[]) =>
  (await c.t.database.pool.query(text, values)).rows as T[];

const roleOf = async (c: CaseContext, communityId: string, uid: string) =>
  (
    await q<{ role: string }>(c, "SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2", [
      communityId,
      uid,
    ])
  )[0]?.role ?? null;

const png = (c: CaseContext, fields?: Record<string, string>) => ({
  name: "picture.png",
  type: "image/png",
  data: c.png,
  fields,
});

/** Whether a ban row keeps the user out of the community. */
const bannedIn = async (c: CaseContext, communityId: string, uid: string) =>
  (await q(c, "SELECT 1 FROM community_bans WHERE community_id = $1 AND user_id = $2", [communityId, uid])).length ===
  1;

/** Changing someone's role in the world's community; allowed, the change took effect. */
const roleChange = (who: Identity, role: string) =>
  ({
    request: (w, _a, c) => ({
      method: "PATCH",
      url: `/api/communities/${w.communityId}/members/${c.users[who].id}`,
      body: { role },
    }),
    allowed: async (_res, { w, c }) => expect(await roleOf(c, w.communityId, c.users[who].id)).toBe(role),
  }) satisfies Case;

/** The world's open report case (issue 22): an id per community, so a ghost world names one that does not exist. */
const reportCases = new Map<string, string>();
const reportCaseId = (w: World) => {
  if (!reportCases.has(w.communityId)) reportCases.set(w.communityId, randomUUID());
  return reportCases.get(w.communityId)!;
};

/** The world's public post, reported once by the target member: one open case. */
async function openReportCase(w: World, c: CaseContext) {
  const id = reportCaseId(w);
  await q(
    c,
    `WITH rc AS (INSERT INTO report_cases (id, community_id, target, target_id, author_id, report_count)
                 VALUES ($1, $2, 'post', $3, $4, 1) RETURNING id)
     INSERT INTO reports (case_id, reporter_id, reason) SELECT id, $5, 'spam' FROM rc`,
    [id, w.communityId, w.posts.pub, c.users.author.id, c.users.target.id],
  );
}

/** Manager routes on a course: the answer is the course page. */
const coursePage = (res: Res, w: World) => expect(res.json.course.id).toBe(w.courses.free.id);

/** The world's calendar event (an id per community, so a ghost world names one that does not exist). */
const calendarEvents = new Map<string, string>();
const calendarEventId = (w: World) => {
  if (!calendarEvents.has(w.communityId)) calendarEvents.set(w.communityId, randomUUID());
  return calendarEvents.get(w.communityId)!;
};

/** A one-off event for all members of the world's community, tomorrow, as the event service stores one. */
async function addCalendarEvent(w: World, c: CaseContext) {
  await c.t.database.pool.query(
    `WITH s AS (
       INSERT INTO event_series (community_id, title, time_zone, duration_minutes, location_kind, place, starts_local)
       VALUES ($2, $3, 'UTC', 60, 'place', 'The hall', to_char(date_trunc('minute', now() + interval '1 day'), 'YYYY-MM-DD"T"HH24:MI'))
       RETURNING id, community_id, title)
     INSERT INTO event_occurrences (id, series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                    duration_minutes, location_kind, place)
     SELECT $1, s.id, s.community_id, date_trunc('minute', now() + interval '1 day'),
            date_trunc('minute', now() + interval '1 day'), date_trunc('minute', now() + interval '1 day 1 hour'),
            s.title, 'UTC', 60, 'place', 'The hall' FROM s`,
    [calendarEventId(w), w.communityId, `Session ${w.token}`],
  );
}

/** The world's community takes requests (no questions), as its owner would set it. */
async function takeRequests(w: World, c: CaseContext) {
  await c.t.database.pool.query(
    `UPDATE communities SET join_policy = 'request', request_questions = '[]' WHERE id = $1`,
    [w.communityId],
  );
}

/**
 * Direct messages: per world, a pen pal who is a member of that world's community only (the shared
 * `target` may meet an actor elsewhere: the actors are the same people in every world, and a join
 * cell makes the non-member a member of some other world's community), the conversation a cell asks
 * about (the actor's own with the pen pal, or `author`'s with the pen pal) and a message in it (by
 * the actor in their own, by `author` in the other). A ghost world has none of them, so its request
 * names ids that do not exist.
 */
const dm = {
  penPals: new Map<string, string>(),
  conversations: new Map<string, string>(),
  messages: new Map<string, string>(),
};
const DM_MISSING = randomUUID();
const dmConversation = (w: World) => dm.conversations.get(w.communityId) ?? DM_MISSING;
const dmMessage = (w: World) => dm.messages.get(w.communityId) ?? DM_MISSING;
const penPalOf = (w: World) => dm.penPals.get(w.communityId) ?? DM_MISSING;

async function penPal(w: World, c: CaseContext): Promise<string> {
  const known = dm.penPals.get(w.communityId);
  if (known) return known;
  const id = randomUUID().replaceAll("-", "");
  const name = `pal_${id.slice(0, 12)}`;
  await q(
    c,
    `WITH u AS (
       INSERT INTO "user" (id, name, email, email_verified) VALUES ($1, $2, $2 || '@authz.test', true) RETURNING id
     ), p AS (
       INSERT INTO user_profiles (user_id, username, full_name) SELECT id, $2, 'Pen pal' FROM u
     )
     INSERT INTO community_members (community_id, user_id, role) SELECT $3::uuid, id, 'member' FROM u`,
    [id, name, w.communityId],
  );
  dm.penPals.set(w.communityId, id);
  return id;
}

async function dmPrepare(w: World, c: CaseContext, whose: "own" | "others") {
  const me = whose === "own" ? userId(c, w.actor) : c.users.author.id;
  if (!me) return;
  const other = await penPal(w, c);
  const [conversation] = await q<{ id: string }>(
    c,
    `WITH made AS (
       INSERT INTO conversations (user_low, user_high) VALUES (least($1::text, $2::text), greatest($1::text, $2::text))
       ON CONFLICT (user_low, user_high) DO NOTHING RETURNING id
     ), sides AS (
       INSERT INTO conversation_members (conversation_id, user_id, other_user_id)
       SELECT made.id, x.u, x.o FROM made, (VALUES ($1::text, $2::text), ($2::text, $1::text)) AS x(u, o)
     )
     SELECT id FROM made
     UNION ALL
     SELECT id FROM conversations WHERE user_low = least($1::text, $2::text) AND user_high = greatest($1::text, $2::text)`,
    [me, other],
  );
  const [message] = await q<{ id: string }>(
    c,
    `INSERT INTO direct_messages (conversation_id, sender_id, body) VALUES ($1, $2, $3) RETURNING id`,
    [conversation.id, me, `a message of ${w.token}`],
  );
  dm.conversations.set(w.communityId, conversation.id);
  dm.messages.set(w.communityId, message.id);
}

export const CASES: Record<string, Case> = {
  "GET /api/health": {
    request: () => ({ method: "GET", url: "/api/health" }),
    allowed: (res) => expect(res.json.status).toBe("ok"),
  },
  "GET /api/ready": {
    request: () => ({ method: "GET", url: "/api/ready" }),
    allowed: (res) => expect(res.json.status).toBe("ready"),
  },
  "GET /api/config": {
    request: () => ({ method: "GET", url: "/api/config" }),
    allowed: (res) => expect(typeof res.json).toBe("object"),
  },
  "GET /api/me": {
    request: () => ({ method: "GET", url: "/api/me" }),
    allowed: (res, { actor, label, c }) =>
      label === "none" ? expect(res.json.user).toBeNull() : expect(res.json.user.id).toBe(userId(c, actor)),
  },
  "PATCH /api/me/profile": {
    request: (w) => ({ method: "PATCH", url: "/api/me/profile", body: { headline: `Headline ${w.token}` } }),
    allowed: (res, { w, actor, c }) => {
      expect(res.json.user_id).toBe(userId(c, actor));
      expect(res.json.headline).toBe(`Headline ${w.token}`);
    },
  },
  "GET /api/profiles/username-available": {
    request: (_w, _a, c) => ({
      method: "GET",
      url: `/api/profiles/username-available?username=${c.users.author.username}`,
    }),
    allowed: (res) => expect(res.json.available).toBe(false),
  },
  "GET /api/profiles/{username}": {
    request: (_w, _a, c) => ({ method: "GET", url: `/api/profiles/${c.users.author.username}` }),
    allowed: (res, { c }) => {
      expect(res.json.username).toBe(c.users.author.username);
      // Not made public: nobody sees the email.
      expect(res.json.email).toBeNull();
      expect(res.text).not.toContain(c.users.author.email);
    },
  },
  "POST /api/me/avatar": {
    request: (_w, _a, c) => ({ method: "POST", url: "/api/me/avatar", file: png(c) }),
    allowed: (res, { actor, c }) => expect(res.json.url).toContain(`user-avatars/${userId(c, actor)}/`),
  },
  "DELETE /api/me/avatar": { request: () => ({ method: "DELETE", url: "/api/me/avatar" }) },
  "GET /api/me/notification-settings": {
    request: () => ({ method: "GET", url: "/api/me/notification-settings" }),
    allowed: (res, { w, label }) => {
      const listed = idsOf(res.json.communities).includes(w.communityId);
      expect(listed, "the world's community in the list").toBe(label === "listed");
      if (!listed) expect(res.text).not.toContain(w.token);
    },
  },
  "GET /api/me/communities": {
    request: () => ({ method: "GET", url: "/api/me/communities" }),
    allowed: (res, { w, actor, label }) => {
      const row = (res.json.items as { id: string; role: string }[]).find((i) => i.id === w.communityId);
      expect(Boolean(row), "the world's community in the list").toBe(label === "listed");
      if (row) expect(row.role).toBe(ROLE_IN_WORLD[actor as keyof typeof ROLE_IN_WORLD]);
      else expect(res.text).not.toContain(w.token);
    },
  },
  "PATCH /api/me/notification-settings": {
    request: (w) => ({
      method: "PATCH",
      url: "/api/me/notification-settings",
      body: { community_settings: { [w.communityId]: { posts: false } } },
    }),
    allowed: (res, { w }) => expect(res.json.community_settings[w.communityId].posts).toBe(false),
  },
  "GET /api/me/factors": {
    request: () => ({ method: "GET", url: "/api/me/factors" }),
    allowed: (res) => expect(Array.isArray(res.json.factors)).toBe(true),
  },
  "PUT /api/me/factors/totp": {
    request: () => ({ method: "PUT", url: "/api/me/factors/totp", body: { friendly_name: "Phone" } }),
    allowed: (res) => expect(res.json.friendly_name).toBe("Phone"),
  },

  // Communities ------------------------------------------------------------------------------
  "GET /api/communities": {
    request: (w) => ({ method: "GET", url: `/api/communities?q=${w.token}` }),
    allowed: (res, { w, label }) => {
      expect(idsOf(res.json.items).includes(w.communityId), "listed in the directory").toBe(label === "listed");
      if (label !== "listed") expect(res.text).not.toContain(w.token);
    },
  },
  "POST /api/communities": {
    request: (w) => ({ method: "POST", url: "/api/communities", body: { name: `New ${w.token}` } }),
    allowed: async (res, { actor, c }) => expect(await roleOf(c, res.json.id, userId(c, actor)!)).toBe("owner"),
  },
  "GET /api/communities/{communityId}": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}` }),
    allowed: (res, { w, actor, label }) => {
      expect(res.json.id).toBe(w.communityId);
      expect(res.json.name).toBe(w.name);
      expect(res.json.viewer.role).toBe(actor === "anonymous" ? null : ROLE_IN_WORLD[actor]);
      expect(res.json.invite_code).toBe(label === "invite" ? w.inviteCode : null);
      if (label !== "invite") expect(res.text).not.toContain(w.inviteCode);
    },
  },
  "PATCH /api/communities/{communityId}": {
    request: (w) => ({ method: "PATCH", url: `/api/communities/${w.communityId}`, body: { tagline: `T ${w.token}` } }),
    allowed: (res, { w }) => expect(res.json.tagline).toBe(`T ${w.token}`),
  },
  "DELETE /api/communities/{communityId}": {
    request: (w) => ({ method: "DELETE", url: `/api/communities/${w.communityId}` }),
    allowed: async (_res, { w, c }) =>
      expect(await q(c, "SELECT 1 FROM communities WHERE id = $1", [w.communityId])).toHaveLength(0),
  },
  "POST /api/communities/{communityId}/invite/regenerate": {
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/invite/regenerate` }),
    allowed: (res, { w }) => {
      expect(res.json.invite_code).toEqual(expect.any(String));
      expect(res.json.invite_code).not.toBe(w.inviteCode);
    },
  },
  "GET /api/communities/{communityId}/categories": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/categories` }),
    allowed: (res, { w }) => expect(idsOf(res.json)).toEqual([w.categoryId]),
  },
  "PUT /api/communities/{communityId}/categories": {
    request: (w) => ({
      method: "PUT",
      url: `/api/communities/${w.communityId}/categories`,
      body: { categories: [{ id: w.categoryId, name: "Renamed", emoji: "" }] },
    }),
    allowed: (res) => expect(res.json.map((x: { name: string }) => x.name)).toEqual(["Renamed"]),
  },
  "POST /api/communities/{communityId}/icon": {
    request: (w, _a, c) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/icon`,
      file: { name: "icon.svg", type: "image/svg+xml", data: c.svg },
    }),
    allowed: (res, { w }) => expect(res.json.path).toContain(`community-assets/${w.communityId}/icon-`),
  },
  "POST /api/communities/{communityId}/cover": {
    request: (w, _a, c) => ({ method: "POST", url: `/api/communities/${w.communityId}/cover`, file: png(c) }),
    allowed: (res, { w }) => expect(res.json.url).toContain(`community-assets/${w.communityId}/cover-`),
  },
  "GET /api/communities/{communityId}/stats": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/stats` }),
    // owner, admin, admin2, moderator, member, author, target, guest
    allowed: (res) => expect(res.json.total_members).toBe(8),
  },

  // Membership -------------------------------------------------------------------------------
  "POST /api/communities/{communityId}/join": {
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/join` }),
    allowed: async (res, { w, actor, label, c }) => {
      expect(res.json.joined).toBe(label === "joined");
      expect(res.json.role).toBe(label === "joined" ? "member" : ROLE_IN_WORLD[actor as keyof typeof ROLE_IN_WORLD]);
      expect(await roleOf(c, w.communityId, userId(c, actor)!)).toBe(res.json.role);
    },
  },
  "POST /api/communities/{communityId}/leave": {
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/leave` }),
    allowed: async (_res, { w, actor, c }) => expect(await roleOf(c, w.communityId, userId(c, actor)!)).toBeNull(),
  },
  "GET /api/communities/{communityId}/members": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/members` }),
    allowed: (res, { actor, c }) => {
      expect(res.json.items.map((m: { user_id: string }) => m.user_id)).toContain(c.users.target.id);
      expect(res.json.viewer_role).toBe(ROLE_IN_WORLD[actor as keyof typeof ROLE_IN_WORLD]);
    },
  },
  "PATCH /api/communities/{communityId}/members/{userId}": roleChange("target", "moderator"),
  "PATCH /api/communities/{communityId}/members/{userId} · the owner's role": {
    request: roleChange("owner", "member").request,
  },
  "PATCH /api/communities/{communityId}/members/{userId} · to owner": roleChange("target", "owner"),
  "PATCH /api/communities/{communityId}/members/{userId} · another admin": roleChange("admin2", "member"),
  "DELETE /api/communities/{communityId}/members/{userId}": {
    request: (w, _a, c) => ({
      method: "DELETE",
      url: `/api/communities/${w.communityId}/members/${c.users.target.id}`,
    }),
    allowed: async (_res, { w, c }) => expect(await roleOf(c, w.communityId, c.users.target.id)).toBeNull(),
  },
  "DELETE /api/communities/{communityId}/members/{userId} · another admin": {
    request: (w, _a, c) => ({
      method: "DELETE",
      url: `/api/communities/${w.communityId}/members/${c.users.admin2.id}`,
    }),
    allowed: async (_res, { w, c }) => expect(await roleOf(c, w.communityId, c.users.admin2.id)).toBeNull(),
  },
  "GET /api/communities/{communityId}/bans": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/bans` }),
    allowed: (res, { c }) => expect(res.json.map((b: { user_id: string }) => b.user_id)).toEqual([c.users.banned.id]),
  },
  "POST /api/communities/{communityId}/bans": {
    request: (w, _a, c) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/bans`,
      body: { user_id: c.users.target.id },
    }),
    allowed: async (_res, { w, c }) => {
      expect(await roleOf(c, w.communityId, c.users.target.id)).toBeNull();
      expect(await bannedIn(c, w.communityId, c.users.target.id)).toBe(true);
    },
  },
  "POST /api/communities/{communityId}/bans · the owner": {
    request: (w, _a, c) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/bans`,
      body: { user_id: c.users.owner.id },
    }),
  },
  "DELETE /api/communities/{communityId}/bans/{userId}": {
    request: (w, _a, c) => ({ method: "DELETE", url: `/api/communities/${w.communityId}/bans/${c.users.banned.id}` }),
    allowed: async (_res, { w, c }) =>
      expect(
        await q(c, "SELECT 1 FROM community_bans WHERE community_id = $1 AND user_id = $2", [
          w.communityId,
          c.users.banned.id,
        ]),
      ).toHaveLength(0),
  },

  // Join requests ----------------------------------------------------------------------------
  "GET /api/communities/{communityId}/membership": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/membership` }),
    allowed: (res) => expect(res.json.cooldown_days).toBe(7),
  },
  "PATCH /api/communities/{communityId}/membership": {
    request: (w) => ({
      method: "PATCH",
      url: `/api/communities/${w.communityId}/membership`,
      body: { cooldown_days: 5 },
    }),
    allowed: (res) => expect(res.json.cooldown_days).toBe(5),
  },
  "GET /api/communities/{communityId}/join-requests/mine": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/join-requests/mine` }),
    allowed: (res, { w }) => expect(res.json.community.id).toBe(w.communityId),
  },
  "POST /api/communities/{communityId}/join-requests": {
    prepare: takeRequests,
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/join-requests`, body: { answers: [] } }),
    allowed: async (res, { w, actor, c }) => {
      expect(res.json.request.status).toBe("pending");
      const rows = await q(
        c,
        "SELECT 1 FROM join_requests WHERE community_id = $1 AND user_id = $2 AND status = 'pending'",
        [w.communityId, userId(c, actor)],
      );
      expect(rows).toHaveLength(1);
    },
  },
  "DELETE /api/communities/{communityId}/join-requests/mine": {
    prepare: async (w, c) => {
      await takeRequests(w, c);
      for (const who of ["nonmember", "other", "left", "banned"] as const) {
        await q(c, "INSERT INTO join_requests (community_id, user_id) VALUES ($1, $2)", [
          w.communityId,
          c.users[who].id,
        ]);
      }
    },
    request: (w) => ({ method: "DELETE", url: `/api/communities/${w.communityId}/join-requests/mine` }),
    allowed: async (_res, { w, actor, c }) =>
      expect(
        await q(c, "SELECT status FROM join_requests WHERE community_id = $1 AND user_id = $2", [
          w.communityId,
          userId(c, actor),
        ]),
      ).toEqual([{ status: "withdrawn" }]),
  },
  "GET /api/communities/{communityId}/join-requests": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/join-requests` }),
    allowed: (res) => expect(res.json).toMatchObject({ items: [], count: 0, next_cursor: null }),
  },
  "POST /api/communities/{communityId}/join-requests/decide": {
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/join-requests/decide`,
      body: { ids: [randomUUID()], decision: "decline" },
    }),
    allowed: (res) => expect(res.json).toMatchObject({ approved: 0, declined: 0, skipped: 1 }),
  },

  // Invites ----------------------------------------------------------------------------------
  "GET /api/invites/{inviteCode}": {
    request: (w) => ({ method: "GET", url: `/api/invites/${w.inviteCode}` }),
    allowed: (res, { w, actor }) => {
      expect(res.json.community.id).toBe(w.communityId);
      expect(res.json.viewer_role).toBe(actor === "anonymous" ? null : ROLE_IN_WORLD[actor]);
    },
  },
  "POST /api/invites/{inviteCode}/accept": {
    request: (w) => ({ method: "POST", url: `/api/invites/${w.inviteCode}/accept` }),
    allowed: async (res, { w, actor, c }) => {
      expect(res.json.community.id).toBe(w.communityId);
      expect(await roleOf(c, w.communityId, userId(c, actor)!)).toBe("member");
    },
  },

  // Posts ------------------------------------------------------------------------------------
  "GET /api/communities/{communityId}/posts": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/posts` }),
    allowed: (res, { w, label }) => {
      const ids = idsOf(res.json.items);
      expect(ids).toContain(w.posts.pub);
      expect(ids.includes(w.posts.members), "members-only post shown").toBe(label !== "public");
      expect(ids.includes(w.posts.admins), "admins-only post shown").toBe(label === "all");
      expect(ids, "someone else's pending post").not.toContain(w.posts.pending);
    },
  },
  "POST /api/communities/{communityId}/posts": {
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/posts`,
      body: { content: `Hi ${w.token}` },
    }),
    allowed: async (res, { w, actor, c }) => {
      expect(res.json.content).toBe(`Hi ${w.token}`);
      expect(await roleOf(c, w.communityId, userId(c, actor)!)).not.toBeNull();
    },
  },
  "GET /api/communities/{communityId}/posts/pending": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/posts/pending` }),
    allowed: (res, { w }) => expect(idsOf(res.json)).toEqual([w.posts.pending]),
  },
  "POST /api/communities/{communityId}/media": {
    request: (w, _a, c) => ({ method: "POST", url: `/api/communities/${w.communityId}/media`, file: png(c) }),
    allowed: (res, { w }) => expect(res.json.url).toContain(`community-assets/${w.communityId}/posts/`),
  },
  "GET /api/posts/{postId}": {
    request: (w) => ({ method: "GET", url: `/api/posts/${w.posts.pub}` }),
    allowed: (res, { w }) => expect(res.json.post.id).toBe(w.posts.pub),
  },
  "GET /api/posts/{postId} · members only": {
    request: (w) => ({ method: "GET", url: `/api/posts/${w.posts.members}` }),
    allowed: (res, { w }) => expect(res.json.post.id).toBe(w.posts.members),
  },
  "GET /api/posts/{postId} · admins only": {
    request: (w) => ({ method: "GET", url: `/api/posts/${w.posts.admins}` }),
    allowed: (res, { w }) => expect(res.json.post.id).toBe(w.posts.admins),
  },
  "GET /api/posts/{postId} · pending": {
    request: (w) => ({ method: "GET", url: `/api/posts/${w.posts.pending}` }),
    allowed: (res, { w }) => expect(res.json.post.id).toBe(w.posts.pending),
  },
  "PATCH /api/posts/{postId}": {
    request: (w) => ({ method: "PATCH", url: `/api/posts/${own(w)}`, body: { content: `Edited ${w.token}` } }),
    allowed: (res, { w }) => expect(res.json.content).toBe(`Edited ${w.token}`),
  },
  "PATCH /api/posts/{postId} · someone else's": {
    request: (w) => ({ method: "PATCH", url: `/api/posts/${w.posts.pub}`, body: { content: `Edited ${w.token}` } }),
  },
  "DELETE /api/posts/{postId}": {
    request: (w) => ({ method: "DELETE", url: `/api/posts/${own(w)}` }),
    allowed: async (_res, { w, c }) =>
      expect(await q(c, "SELECT 1 FROM posts WHERE id = $1 AND deleted_at IS NOT NULL", [own(w)])).toHaveLength(1),
  },
  "DELETE /api/posts/{postId} · someone else's": {
    request: (w) => ({ method: "DELETE", url: `/api/posts/${w.posts.pub}` }),
    allowed: async (_res, { w, c }) =>
      expect(await q(c, "SELECT 1 FROM posts WHERE id = $1 AND deleted_at IS NOT NULL", [w.posts.pub])).toHaveLength(1),
  },
  "POST /api/posts/{postId}/like": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pub}/like` }),
    allowed: (res) => expect(res.json).toEqual({ liked: true, likes_count: 1 }),
  },
  "POST /api/posts/{postId}/save": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.poll}/save` }),
    allowed: (res) => expect(res.json.saved).toBe(true),
  },
  "POST /api/posts/{postId}/share": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pub}/share` }),
    allowed: (res) => expect(res.json.share_count).toBe(1),
  },
  "POST /api/posts/{postId}/vote": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.poll}/vote`, body: { option_index: 0 } }),
    allowed: (res) => {
      expect(res.json.user_vote_index).toBe(0);
      expect(res.json.poll.total_votes).toBe(1);
    },
  },
  "POST /api/posts/{postId}/pin": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pub}/pin`, body: { pinned: true } }),
    allowed: (res) => expect(res.json.is_pinned).toBe(true),
  },
  "POST /api/posts/{postId}/review": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pending}/review`, body: { approve: true } }),
    allowed: (res, { w }) => expect(res.json).toEqual({ id: w.posts.pending, approved: true }),
  },
  "POST /api/posts/{postId}/warn": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pub}/warn`, body: { reason: "Be kind" } }),
    allowed: async (res, { w, c }) => {
      expect(res.json.warned).toBe(true);
      expect(await q(c, "SELECT 1 FROM user_warnings WHERE post_id = $1", [w.posts.pub])).toHaveLength(1);
    },
  },
  "POST /api/reports": {
    request: (w) => ({
      method: "POST",
      url: "/api/reports",
      body: { target: "post", target_id: w.posts.pub, reason: "spam" },
    }),
    allowed: async (_res, { w, c }) =>
      expect(await q(c, "SELECT report_count FROM report_cases WHERE target_id = $1", [w.posts.pub])).toEqual([
        { report_count: 1 },
      ]),
  },
  "GET /api/communities/{idOrSlug}/reports": {
    prepare: openReportCase,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/reports` }),
    allowed: (res, { w }) => {
      expect(res.json.items.map((i: { id: string }) => i.id)).toEqual([reportCaseId(w)]);
      expect(res.json.items[0].content.body).toContain(w.token);
    },
  },
  "GET /api/communities/{idOrSlug}/reports/count": {
    prepare: openReportCase,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/reports/count` }),
    allowed: (res) => expect(res.json).toEqual({ open: 1 }),
  },
  "POST /api/communities/{idOrSlug}/reports/{caseId}/decide": {
    prepare: openReportCase,
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/reports/${reportCaseId(w)}/decide`,
      body: { action: "dismiss" },
    }),
    allowed: (res) => expect(res.json.status).toBe("dismissed"),
  },
  "POST /api/communities/{idOrSlug}/reports/{caseId}/decide · ban": {
    prepare: openReportCase,
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/reports/${reportCaseId(w)}/decide`,
      body: { action: "ban", reason: "Spam" },
    }),
    allowed: async (res, { w, c }) => {
      expect(res.json.status).toBe("banned");
      expect(await bannedIn(c, w.communityId, c.users.author.id)).toBe(true);
    },
  },
  "GET /api/communities/{idOrSlug}/reports/settings": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/reports/settings` }),
    allowed: (res) => expect(res.json).toEqual({ hide_threshold: 3, min_message_level: 1 }),
  },
  "PUT /api/communities/{idOrSlug}/reports/settings": {
    request: (w) => ({
      method: "PUT",
      url: `/api/communities/${w.communityId}/reports/settings`,
      body: { hide_threshold: 5 },
    }),
    allowed: (res) => expect(res.json.hide_threshold).toBe(5),
  },
  "GET /api/me/saved": {
    request: () => ({ method: "GET", url: "/api/me/saved" }),
    allowed: (res, { w, label }) => {
      const ids = idsOf(res.json.items);
      expect(ids.includes(w.posts.pub), "the saved public post").toBe(label === "public" || label === "both");
      expect(ids.includes(w.posts.members), "the saved members-only post").toBe(label === "both");
      if (label === "none") expect(res.text).not.toContain(w.token);
    },
  },

  // Comments ---------------------------------------------------------------------------------
  "GET /api/posts/{postId}/comments": {
    request: (w) => ({ method: "GET", url: `/api/posts/${w.posts.pub}/comments` }),
    allowed: (res, { w }) => expect(idsOf(res.json)).toContain(w.comments.other),
  },
  "POST /api/posts/{postId}/comments": {
    request: (w) => ({ method: "POST", url: `/api/posts/${w.posts.pub}/comments`, body: { content: `Re ${w.token}` } }),
    allowed: (res, { w }) => expect(res.json.content).toBe(`Re ${w.token}`),
  },
  "PATCH /api/comments/{commentId}": {
    request: (w) => ({
      method: "PATCH",
      url: `/api/comments/${ownComment(w)}`,
      body: { content: `Edited ${w.token}` },
    }),
    allowed: (res, { w }) => expect(res.json.content).toBe(`Edited ${w.token}`),
  },
  "PATCH /api/comments/{commentId} · someone else's": {
    request: (w) => ({
      method: "PATCH",
      url: `/api/comments/${w.comments.other}`,
      body: { content: `Edited ${w.token}` },
    }),
  },
  "DELETE /api/comments/{commentId}": {
    request: (w) => ({ method: "DELETE", url: `/api/comments/${ownComment(w)}` }),
    allowed: async (_res, { w, c }) =>
      expect(
        await q(c, "SELECT 1 FROM comments WHERE id = $1 AND deleted_at IS NOT NULL", [ownComment(w)]),
      ).toHaveLength(1),
  },
  "DELETE /api/comments/{commentId} · someone else's": {
    request: (w) => ({ method: "DELETE", url: `/api/comments/${w.comments.other}` }),
    allowed: async (_res, { w, c }) =>
      expect(
        await q(c, "SELECT 1 FROM comments WHERE id = $1 AND deleted_at IS NOT NULL", [w.comments.other]),
      ).toHaveLength(1),
  },
  "POST /api/comments/{commentId}/like": {
    request: (w) => ({ method: "POST", url: `/api/comments/${w.comments.other}/like` }),
    allowed: (res) => expect(res.json).toEqual({ liked: true, likes_count: 1 }),
  },
  "GET /api/communities/{communityId}/leaderboard": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/leaderboard` }),
    allowed: (res) => expect(Array.isArray(res.json.items)).toBe(true),
  },
  "GET /api/communities/{communityId}/levels": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/levels` }),
    allowed: (res) => expect(res.json.thresholds).toHaveLength(9),
  },
  "PUT /api/communities/{communityId}/levels": {
    request: (w) => ({ method: "PUT", url: `/api/communities/${w.communityId}/levels`, body: { points_per_event: 3 } }),
    allowed: (res) => expect(res.json.points_per_event).toBe(3),
  },
  "GET /api/communities/{communityId}/search": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/search?q=post` }),
    allowed: (res) => expect(res.json.groups).toHaveLength(5),
  },
  "GET /api/search": {
    request: () => ({ method: "GET", url: "/api/search?q=post" }),
    allowed: (res) => expect(res.json.groups).toHaveLength(5),
  },

  // Uploads ----------------------------------------------------------------------------------
  "POST /api/upload": {
    request: (_w, _a, c) => ({ method: "POST", url: "/api/upload", file: png(c) }),
    allowed: (res, { actor, c }) => expect(res.json.url).toContain(`user-uploads/${userId(c, actor)}/`),
  },
  "POST /api/upload · a post file of the community": {
    request: (w, _a, c) => ({
      method: "POST",
      url: "/api/upload",
      file: png(c, { communityId: w.communityId, uploadType: "posts" }),
    }),
    allowed: (res, { w }) => expect(res.json.url).toContain(`community-assets/${w.communityId}/posts/`),
  },
  "POST /api/upload · a course file of the community": {
    request: (w, _a, c) => ({
      method: "POST",
      url: "/api/upload",
      file: png(c, { communityId: w.communityId, uploadType: "courses" }),
    }),
    allowed: (res, { w }) => expect(res.json.url).toContain(`community-assets/${w.communityId}/courses/`),
  },
  "GET /api/upload/health": {
    request: () => ({ method: "GET", url: "/api/upload/health" }),
    allowed: (res) => expect(res.json.ok).toBe(true),
  },
  "POST /api/upload/presigned-url": {
    request: (w) => ({
      method: "POST",
      url: "/api/upload/presigned-url",
      body: {
        fileName: "clip.mp4",
        fileType: "video/mp4",
        communityId: w.communityId,
        uploadType: "posts",
        fileSize: 1000,
      },
    }),
    allowed: (res, { w }) => expect(res.json.key).toContain(`community-assets/${w.communityId}/posts/`),
  },
  "POST /api/upload/presigned-url · a course file": {
    request: (w) => ({
      method: "POST",
      url: "/api/upload/presigned-url",
      body: {
        fileName: "clip.mp4",
        fileType: "video/mp4",
        communityId: w.communityId,
        uploadType: "courses",
        fileSize: 1000,
      },
    }),
    allowed: (res, { w }) => expect(res.json.key).toContain(`community-assets/${w.communityId}/courses/`),
  },
  "POST /api/upload/complete": {
    request: (w) => ({ method: "POST", url: "/api/upload/complete", body: { key: w.pendingUploadKey } }),
  },

  // Courses ----------------------------------------------------------------------------------
  "GET /api/communities/{communityId}/events": {
    prepare: addCalendarEvent,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/events?when=upcoming` }),
    allowed: (res, { w, label }) =>
      expect(idsOf(res.json.items)).toEqual(label === "listed" ? [calendarEventId(w)] : []),
  },
  "GET /api/communities/{communityId}/calendar": {
    prepare: addCalendarEvent,
    request: (w) => {
      // A week around the world's event (tomorrow).
      const from = new Date(Date.now() - 3 * 86_400_000).toISOString();
      const to = new Date(Date.now() + 4 * 86_400_000).toISOString();
      return { method: "GET", url: `/api/communities/${w.communityId}/calendar?from=${from}&to=${to}` };
    },
    allowed: (res, { w, label }) =>
      expect(idsOf(res.json.items)).toEqual(label === "listed" ? [calendarEventId(w)] : []),
  },
  "POST /api/communities/{communityId}/events": {
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/events`,
      body: {
        title: `New event ${w.token}`,
        starts_at_local: "2031-01-06T10:00",
        time_zone: "Europe/London",
        duration_minutes: 60,
        location_kind: "place",
        place: "The hall",
      },
    }),
    allowed: (res, { w }) =>
      expect(res.json).toMatchObject({ community_id: w.communityId, starts_at: "2031-01-06T10:00:00.000Z" }),
  },
  "GET /api/events/{occurrenceId}": {
    prepare: addCalendarEvent,
    request: (w) => ({ method: "GET", url: `/api/events/${calendarEventId(w)}` }),
    allowed: (res, { w }) => expect(res.json).toMatchObject({ id: calendarEventId(w), title: `Session ${w.token}` }),
  },
  "PATCH /api/events/{occurrenceId}": {
    prepare: addCalendarEvent,
    request: (w) => ({
      method: "PATCH",
      url: `/api/events/${calendarEventId(w)}`,
      body: { scope: "all", title: `Renamed ${w.token}` },
    }),
    allowed: (res, { w }) => expect(res.json.title).toBe(`Renamed ${w.token}`),
  },
  "POST /api/events/{occurrenceId}/cancel": {
    prepare: addCalendarEvent,
    request: (w) => ({ method: "POST", url: `/api/events/${calendarEventId(w)}/cancel`, body: { scope: "one" } }),
    allowed: async (res, { w, c }) => {
      expect(res.json.status).toBe("cancelled");
      const rows = await q<{ status: string }>(c, "SELECT status FROM event_occurrences WHERE id = $1", [
        calendarEventId(w),
      ]);
      expect(rows[0].status).toBe("cancelled");
    },
  },
  "GET /api/communities/{communityId}/courses": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/courses` }),
    allowed: (res, { w, label }) => {
      const ids = idsOf(res.json.items);
      expect(ids).toEqual(expect.arrayContaining([w.courses.free.id, w.courses.paid.id]));
      expect(ids.includes(w.courses.draft.id), "the draft listed").toBe(label === "drafts");
      expect(res.json.can_manage).toBe(label === "drafts");
    },
  },
  "POST /api/communities/{communityId}/courses": {
    request: (w) => ({
      method: "POST",
      url: `/api/communities/${w.communityId}/courses`,
      body: { title: `Course ${w.token}`, description: "About it" },
    }),
    allowed: (res, { w }) => {
      expect(res.json.course.title).toBe(`Course ${w.token}`);
      expect(res.json.course.status).toBe("draft");
    },
  },
  "PUT /api/communities/{communityId}/courses/order": {
    request: (w) => ({
      method: "PUT",
      url: `/api/communities/${w.communityId}/courses/order`,
      body: { ids: [w.courses.draft.id, w.courses.paid.id, w.courses.free.id] },
    }),
    allowed: (res, { w }) =>
      expect(idsOf(res.json.items)).toEqual([w.courses.draft.id, w.courses.paid.id, w.courses.free.id]),
  },
  "GET /api/courses/{courseId}": {
    request: (w) => ({ method: "GET", url: `/api/courses/${w.courses.free.id}` }),
    allowed: (res, { w, label }) => lessonShown(res, w, "free", label),
  },
  "GET /api/courses/{courseId} · paid": {
    request: (w) => ({ method: "GET", url: `/api/courses/${w.courses.paid.id}` }),
    allowed: (res, { w, label }) => lessonShown(res, w, "paid", label),
  },
  "GET /api/courses/{courseId} · draft": {
    request: (w) => ({ method: "GET", url: `/api/courses/${w.courses.draft.id}` }),
    allowed: (res, { w }) => lessonShown(res, w, "draft", "open"),
  },
  "PATCH /api/courses/{courseId}": {
    request: (w) => ({
      method: "PATCH",
      url: `/api/courses/${w.courses.free.id}`,
      body: { title: `Renamed ${w.token}` },
    }),
    allowed: (res, { w }) => expect(res.json.course.title).toBe(`Renamed ${w.token}`),
  },
  "DELETE /api/courses/{courseId}": {
    request: (w) => ({ method: "DELETE", url: `/api/courses/${w.courses.free.id}` }),
    allowed: async (_res, { w, c }) =>
      expect(await q(c, "SELECT 1 FROM courses WHERE id = $1", [w.courses.free.id])).toHaveLength(0),
  },
  "POST /api/courses/{courseId}/purchase": {
    request: (w) => ({ method: "POST", url: `/api/courses/${w.courses.paid.id}/purchase` }),
    allowed: (res) => expect(res.json.course.has_access).toBe(true),
  },
  "POST /api/courses/{courseId}/modules": {
    request: (w) => ({ method: "POST", url: `/api/courses/${w.courses.free.id}/modules`, body: { title: "Part two" } }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules).toHaveLength(2);
    },
  },
  "PUT /api/courses/{courseId}/modules/order": {
    request: (w) => ({
      method: "PUT",
      url: `/api/courses/${w.courses.free.id}/modules/order`,
      body: { ids: [w.courses.free.moduleId] },
    }),
    allowed: (res, { w }) => coursePage(res, w),
  },
  "PATCH /api/modules/{moduleId}": {
    request: (w) => ({ method: "PATCH", url: `/api/modules/${w.courses.free.moduleId}`, body: { title: "Renamed" } }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules[0].title).toBe("Renamed");
    },
  },
  "DELETE /api/modules/{moduleId}": {
    request: (w) => ({ method: "DELETE", url: `/api/modules/${w.courses.free.moduleId}` }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules).toHaveLength(0);
    },
  },
  "POST /api/modules/{moduleId}/lessons": {
    request: (w) => ({
      method: "POST",
      url: `/api/modules/${w.courses.free.moduleId}/lessons`,
      body: { title: "Lesson two", video_url: "https://videos.example.test/two.mp4" },
    }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules[0].lessons).toHaveLength(2);
    },
  },
  "PUT /api/modules/{moduleId}/lessons/order": {
    request: (w) => ({
      method: "PUT",
      url: `/api/modules/${w.courses.free.moduleId}/lessons/order`,
      body: { ids: [w.courses.free.lessonId] },
    }),
    allowed: (res, { w }) => coursePage(res, w),
  },
  "PATCH /api/lessons/{lessonId}": {
    request: (w) => ({ method: "PATCH", url: `/api/lessons/${w.courses.free.lessonId}`, body: { title: "Renamed" } }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules[0].lessons[0].title).toBe("Renamed");
    },
  },
  "DELETE /api/lessons/{lessonId}": {
    request: (w) => ({ method: "DELETE", url: `/api/lessons/${w.courses.free.lessonId}` }),
    allowed: (res, { w }) => {
      coursePage(res, w);
      expect(res.json.modules[0].lessons).toHaveLength(0);
    },
  },
  "POST /api/lessons/{lessonId}/complete": {
    request: (w) => ({ method: "POST", url: `/api/lessons/${w.courses.free.lessonId}/complete` }),
    allowed: (res, { w }) => expect(res.json).toMatchObject({ course_id: w.courses.free.id, completed_count: 1 }),
  },
  "POST /api/lessons/{lessonId}/complete · paid": {
    request: (w) => ({ method: "POST", url: `/api/lessons/${w.courses.paid.lessonId}/complete` }),
    allowed: (res, { w }) => expect(res.json).toMatchObject({ course_id: w.courses.paid.id, completed_count: 1 }),
  },
  "POST /api/lessons/{lessonId}/complete · draft": {
    request: (w) => ({ method: "POST", url: `/api/lessons/${w.courses.draft.lessonId}/complete` }),
    allowed: (res, { w }) => expect(res.json).toMatchObject({ course_id: w.courses.draft.id, completed_count: 1 }),
  },

  // Notifications ----------------------------------------------------------------------------
  "GET /api/notifications": {
    request: () => ({ method: "GET", url: "/api/notifications?limit=50" }),
    allowed: (res, { w, label }) => {
      const ids = idsOf(res.json.items);
      expect(ids.includes(w.notifications.own!), "the caller's notification").toBe(label === "shown");
      expect(ids, "someone else's notification").not.toContain(w.notifications.other);
      if (label === "none") expect(res.text).not.toContain(w.token);
    },
  },
  "GET /api/notifications/unread-count": {
    request: () => ({ method: "GET", url: "/api/notifications/unread-count" }),
    allowed: (res) => expect(res.json.unread_count).toEqual(expect.any(Number)),
  },
  "POST /api/notifications/read-all": {
    request: () => ({ method: "POST", url: "/api/notifications/read-all" }),
    allowed: async (_res, { w, c }) => {
      const rows = await q<{ id: string; is_read: boolean }>(
        c,
        "SELECT id, is_read FROM notifications WHERE id = ANY($1)",
        [[w.notifications.own, w.notifications.other]],
      );
      const read = Object.fromEntries(rows.map((r) => [r.id, r.is_read]));
      expect(read[w.notifications.own!]).toBe(true);
      // Only the caller's own.
      expect(read[w.notifications.other]).toBe(false);
    },
  },
  "POST /api/notifications/{id}/read": {
    request: (w) => ({
      method: "POST",
      url: `/api/notifications/${w.notifications.own ?? w.notifications.other}/read`,
    }),
    allowed: async (res, { w, c }) => {
      expect(res.json.unread_count).toEqual(expect.any(Number));
      const [row] = await q<{ is_read: boolean }>(c, "SELECT is_read FROM notifications WHERE id = $1", [
        w.notifications.own,
      ]);
      expect(row.is_read).toBe(true);
    },
  },
  "POST /api/notifications/{id}/read · someone else's": {
    request: (w) => ({ method: "POST", url: `/api/notifications/${w.notifications.other}/read` }),
  },
  "POST /api/notifications/unsubscribe": {
    request: (w) => ({ method: "POST", url: "/api/notifications/unsubscribe", body: { token: `${w.token}.forged` } }),
  },
  "POST /api/notifications/unsubscribe · a valid token": {
    request: (_w, _a, c) => ({
      method: "POST",
      url: "/api/notifications/unsubscribe",
      body: { token: unsubscribeToken(c.t.config.authSecret, c.users.author.id) },
    }),
    allowed: (res) => expect(res.json).toEqual({ email_enabled: false }),
  },

  // Billing ----------------------------------------------------------------------------------
  "POST /api/billing/trial": {
    request: () => ({ method: "POST", url: "/api/billing/trial", body: { plan: "annual", request_id: randomUUID() } }),
    allowed: async (res, { actor, c }) =>
      expect(await roleOf(c, res.json.community.id, userId(c, actor)!)).toBe("owner"),
  },
  "GET /api/billing/plan": {
    request: () => ({ method: "GET", url: "/api/billing/plan" }),
    // None yet, or the caller's own: its community is theirs.
    allowed: async (res, { actor, c }) => {
      if (res.json !== null) expect(await roleOf(c, res.json.community.id, userId(c, actor)!)).toBe("owner");
    },
  },

  // Payments ---------------------------------------------------------------------------------
  "POST /api/payments/webhook": {
    request: () => ({ method: "POST", url: "/api/payments/webhook", body: { id: "evt_1", type: "invoice.paid" } }),
  },
  "POST /api/billing/checkout": {
    prepare: sellTier,
    request: (w) => ({
      method: "POST",
      url: "/api/billing/checkout",
      body: { product: "tier", tier_id: sale(w).tierId, interval: "month" },
    }),
    allowed: (res) => expect(res.json.url).toBe(`/billing/checkout/${res.json.checkout_id}`),
  },
  "GET /api/billing/checkout/{id}": {
    prepare: sellTier,
    request: (w) => ({ method: "GET", url: `/api/billing/checkout/${sale(w).checkoutId}` }),
    allowed: (res, { w }) =>
      expect(res.json).toMatchObject({ status: "open", product: { name: "Standard", community: { name: w.name } } }),
  },
  "POST /api/billing/checkout/{id}/simulated-payment": {
    prepare: sellTier,
    request: (w) => ({ method: "POST", url: `/api/billing/checkout/${sale(w).checkoutId}/simulated-payment` }),
    allowed: (res, { w }) => expect(res.json.id).toBe(sale(w).checkoutId),
  },
  "GET /api/billing": {
    request: () => ({ method: "GET", url: "/api/billing" }),
    // Only the caller's own: nobody here bought anything but member, in other worlds.
    allowed: async (res, { actor, c }) => {
      const uid = userId(c, actor);
      const held = await q<{ id: string }>(c, "SELECT id FROM entitlements WHERE user_id = $1 AND kind <> 'course'", [
        uid,
      ]);
      expect(res.json.subscriptions.map((x: { id: string }) => x.id).sort()).toEqual(held.map((h) => h.id).sort());
    },
  },
  "POST /api/billing/subscriptions/{id}/cancel": {
    prepare: sellTier,
    request: (w) => ({ method: "POST", url: `/api/billing/subscriptions/${sale(w).entitlementId}/cancel` }),
    allowed: async (_res, { w, c }) =>
      expect(
        (await q<{ status: string }>(c, "SELECT status FROM entitlements WHERE id = $1", [sale(w).entitlementId]))[0]
          .status,
      ).toBe("canceled"),
  },
  "POST /api/billing/subscriptions/{id}/resume": {
    prepare: sellTier,
    request: (w) => ({ method: "POST", url: `/api/billing/subscriptions/${sale(w).entitlementId}/resume` }),
  },
  "POST /api/billing/subscriptions/{id}/change": {
    prepare: sellTier,
    request: (w) => ({
      method: "POST",
      url: `/api/billing/subscriptions/${sale(w).entitlementId}/change`,
      body: { tier_id: sale(w).tierId, interval: "year" },
    }),
    allowed: async (_res, { w, c }) =>
      expect(
        (
          await q<{ interval: string }>(c, "SELECT interval FROM entitlements WHERE id = $1", [sale(w).entitlementId])
        )[0].interval,
      ).toBe("year"),
  },
  "POST /api/billing/portal": {
    request: () => ({ method: "POST", url: "/api/billing/portal" }),
  },
  "GET /api/communities/{communityId}/tiers": {
    prepare: sellTier,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/tiers` }),
    allowed: (res) => expect(res.json.tiers.map((x: { name: string }) => x.name)).toEqual(["Standard"]),
  },
  "GET /api/communities/{communityId}/pricing": {
    prepare: sellTier,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/pricing` }),
    allowed: (res) => expect(res.json.tiers[0]).toMatchObject({ name: "Standard", subscribers: 1 }),
  },
  "PUT /api/communities/{communityId}/pricing": {
    request: (w) => ({
      method: "PUT",
      url: `/api/communities/${w.communityId}/pricing`,
      body: {
        currency: "eur",
        grace_days: 5,
        tiers: [
          { name: "VIP", description: "", free: false, monthly_amount: 2500, annual_amount: null, trial_days: 0 },
        ],
      },
    }),
    allowed: async (_res, { w, c }) =>
      expect(
        (
          await q<{ type: string; currency: string }>(c, "SELECT type, currency FROM communities WHERE id = $1", [
            w.communityId,
          ])
        )[0],
      ).toEqual({
        type: "paid",
        currency: "eur",
      }),
  },
  "GET /api/communities/{communityId}/revenue": {
    prepare: sellTier,
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/revenue` }),
    allowed: (res) => expect(res.json).toMatchObject({ mrr: 900, currency: "usd" }),
  },
  "GET /api/communities/{communityId}/payments.csv": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/payments.csv` }),
    allowed: (res) => expect(res.text.split("\n")[0]).toMatch(/^date,type,status,amount/),
  },
  "GET /api/communities/{communityId}/payouts": {
    request: (w) => ({ method: "GET", url: `/api/communities/${w.communityId}/payouts` }),
    allowed: (res) => expect(res.json).toMatchObject({ mode: "instance", provider: "simulated" }),
  },
  "POST /api/communities/{communityId}/payouts/connect": {
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/payouts/connect` }),
  },
  "POST /api/communities/{communityId}/payouts/refresh": {
    request: (w) => ({ method: "POST", url: `/api/communities/${w.communityId}/payouts/refresh` }),
    allowed: (res) => expect(res.json).toMatchObject({ mode: "instance" }),
  },

  // Realtime ---------------------------------------------------------------------------------
  "GET /api/realtime/communities/{communityId}": {
    request: (w) => ({ method: "GET", url: `/api/realtime/communities/${w.communityId}`, stream: true }),
  },
  "GET /api/realtime/notifications": {
    request: () => ({ method: "GET", url: "/api/realtime/notifications", stream: true }),
  },

  // Direct messages -----------------------------------------------------------------------------
  "GET /api/conversations": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: () => ({ method: "GET", url: "/api/conversations" }),
    allowed: (res, { w }) => expect(idsOf(res.json.conversations)).not.toContain(dm.conversations.get(w.communityId)),
  },
  "POST /api/conversations": {
    prepare: async (w, c) => void (await penPal(w, c)),
    request: (w) => ({ method: "POST", url: "/api/conversations", body: { user_id: penPalOf(w), body: "hi" } }),
    allowed: (res, { w }) => expect(res.json.other.id).toBe(penPalOf(w)),
  },
  "GET /api/conversations/{id}": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: (w) => ({ method: "GET", url: `/api/conversations/${dmConversation(w)}` }),
  },
  "GET /api/conversations/{id} · own": {
    prepare: (w, c) => dmPrepare(w, c, "own"),
    request: (w) => ({ method: "GET", url: `/api/conversations/${dmConversation(w)}` }),
    allowed: (res, { w }) => expect(res.json.conversation.id).toBe(dmConversation(w)),
  },
  "POST /api/conversations/{id}/messages": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: (w) => ({ method: "POST", url: `/api/conversations/${dmConversation(w)}/messages`, body: { body: "hi" } }),
  },
  "POST /api/conversations/{id}/messages · own": {
    prepare: (w, c) => dmPrepare(w, c, "own"),
    request: (w) => ({ method: "POST", url: `/api/conversations/${dmConversation(w)}/messages`, body: { body: "hi" } }),
    allowed: (res, { w }) => expect(res.json.conversation_id).toBe(dmConversation(w)),
  },
  "POST /api/conversations/{id}/read": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: (w) => ({ method: "POST", url: `/api/conversations/${dmConversation(w)}/read`, body: {} }),
  },
  "POST /api/conversations/{id}/read · own": {
    prepare: (w, c) => dmPrepare(w, c, "own"),
    request: (w) => ({ method: "POST", url: `/api/conversations/${dmConversation(w)}/read`, body: {} }),
    allowed: (res) => expect(res.json.unread).toEqual(expect.any(Number)),
  },
  "PATCH /api/messages/{id}": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: (w) => ({ method: "PATCH", url: `/api/messages/${dmMessage(w)}`, body: { body: "changed" } }),
  },
  "PATCH /api/messages/{id} · own": {
    prepare: (w, c) => dmPrepare(w, c, "own"),
    request: (w) => ({ method: "PATCH", url: `/api/messages/${dmMessage(w)}`, body: { body: "changed" } }),
    allowed: (res) => expect(res.json.body).toBe("changed"),
  },
  "DELETE /api/messages/{id}": {
    prepare: (w, c) => dmPrepare(w, c, "others"),
    request: (w) => ({ method: "DELETE", url: `/api/messages/${dmMessage(w)}` }),
  },
  "DELETE /api/messages/{id} · own": {
    prepare: (w, c) => dmPrepare(w, c, "own"),
    request: (w) => ({ method: "DELETE", url: `/api/messages/${dmMessage(w)}` }),
    allowed: (res) => expect(res.json.deleted).toBe(true),
  },
  "GET /api/messages/unread-count": {
    request: () => ({ method: "GET", url: "/api/messages/unread-count" }),
    allowed: (res) => expect(res.json.unread).toEqual(expect.any(Number)),
  },
  "GET /api/me/messaging": {
    request: () => ({ method: "GET", url: "/api/me/messaging" }),
    allowed: (res) => expect(res.json.policy).toBe("members"),
  },
  "PUT /api/me/messaging": {
    request: () => ({ method: "PUT", url: "/api/me/messaging", body: { policy: "members" } }),
    allowed: (res) => expect(res.json.policy).toBe("members"),
  },
  "GET /api/me/blocks": {
    request: () => ({ method: "GET", url: "/api/me/blocks" }),
    allowed: (res) => expect(res.json.blocks).toEqual(expect.any(Array)),
  },
  "PUT /api/users/{userId}/block": {
    request: (_w, _a, c) => ({ method: "PUT", url: `/api/users/${c.users.admin2.id}/block`, body: {} }),
    allowed: (res) => expect(res.json.blocked).toBe(true),
  },
  "DELETE /api/users/{userId}/block": {
    request: (_w, _a, c) => ({ method: "DELETE", url: `/api/users/${c.users.admin2.id}/block` }),
    allowed: (res) => expect(res.json.blocked).toBe(false),
  },

  // Hidden routes ----------------------------------------------------------------------------
  "GET /api/auth/get-session": {
    request: () => ({ method: "GET", url: "/api/auth/get-session" }),
    allowed: (res, { actor, label, c }) =>
      label === "none" ? expect(res.json).toBeNull() : expect(res.json.user.id).toBe(userId(c, actor)),
  },
  "GET /api/dev/mailbox": {
    request: () => ({ method: "GET", url: "/api/dev/mailbox", remoteAddress: "203.0.113.9" }),
  },
  "GET /dev/mailbox": {
    request: () => ({ method: "GET", url: "/dev/mailbox", remoteAddress: "203.0.113.9" }),
  },
  "GET /api/admin/mailbox": {
    request: () => ({ method: "GET", url: "/api/admin/mailbox" }),
  },
  "GET /admin/mailbox": {
    request: () => ({ method: "GET", url: "/admin/mailbox" }),
  },
  "GET /media/{key}": {
    request: (w) => ({ method: "GET", url: `/media/${mediaKey(w, "pub")}` }),
    prepare: (w, c) => storePostImage(w, c, "pub"),
  },
  "GET /media/{key} · a members-only post's image": {
    request: (w) => ({ method: "GET", url: `/media/${mediaKey(w, "members")}` }),
    prepare: (w, c) => storePostImage(w, c, "members"),
  },
  "GET /api/openapi.json": {
    request: () => ({ method: "GET", url: "/api/openapi.json" }),
    allowed: (res) => expect(Object.keys(res.json.paths).length).toBeGreaterThan(0),
  },
  "GET /api/events/{occurrenceId}/ics": {
    prepare: addWorldEvent,
    request: (w) => ({ method: "GET", url: `/api/events/${worldEventId(w)}/ics` }),
    allowed: (res, { w }) => {
      expect(res.text).toContain(`UID:${worldEventId(w)}@hearth`);
      expect(res.text).toContain(`SUMMARY:Call ${w.token}`);
    },
  },
  "PUT /api/events/{occurrenceId}/rsvp": {
    prepare: addWorldEvent,
    request: (w) => ({ method: "PUT", url: `/api/events/${worldEventId(w)}/rsvp`, body: { status: "going" } }),
    allowed: async (res, { w, actor, c }) => {
      expect(res.json).toMatchObject({ rsvp: "going", going_count: 1, waitlist_count: 0 });
      const rows = await q<{ status: string }>(
        c,
        "SELECT status FROM event_rsvps WHERE occurrence_id = $1 AND user_id = $2",
        [worldEventId(w), userId(c, actor)],
      );
      expect(rows).toEqual([{ status: "going" }]);
    },
  },
  "GET /api/events/{occurrenceId}/attendees": {
    prepare: addWorldEvent,
    request: (w) => ({ method: "GET", url: `/api/events/${worldEventId(w)}/attendees` }),
    allowed: (res) => expect(res.json).toEqual({ going: [], waitlist_count: 0, next_cursor: null }),
  },
  "GET /api/me/calendar-feed": {
    request: () => ({ method: "GET", url: "/api/me/calendar-feed" }),
    allowed: (res) => expect(res.json).toHaveProperty("url"),
  },
  "POST /api/me/calendar-feed": {
    request: () => ({ method: "POST", url: "/api/me/calendar-feed" }),
    allowed: (res) => expect(res.json.url).toMatch(/\/calendar\/[\w-]{43}\.ics$/),
  },
  "DELETE /api/me/calendar-feed": { request: () => ({ method: "DELETE", url: "/api/me/calendar-feed" }) },
  "GET /calendar/{file}": {
    // The feed of a member of this world alone (so other worlds' events never crowd it): the token
    // is the credential, whoever sends it.
    prepare: async (w, c) => {
      await addWorldEvent(w, c);
      const subscriber = `feed-${derived(w, "subscriber").toString("hex").slice(0, 24)}`;
      await c.t.database.pool.query(
        `INSERT INTO "user" (id, name, email, email_verified) VALUES ($1, 'Subscriber', $1 || '@example.test', true)
         ON CONFLICT (id) DO NOTHING`,
        [subscriber],
      );
      await c.t.database.pool.query(
        `INSERT INTO calendar_feeds (user_id, token) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`,
        [subscriber, worldFeedToken(w)],
      );
      await c.t.database.pool.query(
        `INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'member') ON CONFLICT DO NOTHING`,
        [w.communityId, subscriber],
      );
    },
    request: (w) => ({ method: "GET", url: `/calendar/${worldFeedToken(w)}.ics` }),
    allowed: (res, { w }) => expect(res.text).toContain(`UID:${worldEventId(w)}@hearth`),
  },
};

/** Ids derived from the world's community, so a ghost world names an event and a feed that do not exist. */
const derived = (w: World, what: string) => createHash("sha256").update(`${w.communityId}:${what}`).digest();
const uuidOf = (b: Buffer) => {
  const h = b.subarray(0, 16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const worldEventId = (w: World) => uuidOf(derived(w, "event"));
const worldFeedToken = (w: World) => derived(w, "feed").toString("base64url").slice(0, 43);

/** An event for all members in the world's community, tomorrow (as the event service stores one). */
async function addWorldEvent(w: World, c: CaseContext) {
  const seriesId = uuidOf(derived(w, "series"));
  await c.t.database.pool.query(
    `INSERT INTO event_series (id, community_id, title, time_zone, duration_minutes, location_kind, meeting_url, starts_local)
     VALUES ($1, $2, $3, 'UTC', 60, 'online', 'https://meet.example.test/room', to_char(now() + interval '1 day', 'YYYY-MM-DD"T"HH24:MI'))
     ON CONFLICT (id) DO NOTHING`,
    [seriesId, w.communityId, `Call ${w.token}`],
  );
  await c.t.database.pool.query(
    `INSERT INTO event_occurrences (id, series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                    duration_minutes, location_kind, meeting_url)
     VALUES ($1, $2, $3, date_trunc('minute', now() + interval '1 day'), date_trunc('minute', now() + interval '1 day'),
             date_trunc('minute', now() + interval '1 day 1 hour'), $4, 'UTC', 60, 'online', 'https://meet.example.test/room')
     ON CONFLICT (id) DO NOTHING`,
    [worldEventId(w), seriesId, w.communityId, `Call ${w.token}`],
  );
}

type Sale = { tierId: string; checkoutId: string; entitlementId: string };
const sales = new Map<string, Sale>();
/** The world's sale (made by sellTier); for a missing world, ids that exist nowhere. */
const sale = (w: World): Sale =>
  sales.get(w.communityId) ?? { tierId: randomUUID(), checkoutId: randomUUID(), entitlementId: randomUUID() };

/**
 * The world's community sells a "Standard" tier ($9 a month, $90 a year) through the simulated
 * provider; `member` has an open checkout and holds a subscription to it (the provider's own
 * objects included, so cancelling and changing plan reach it).
 */
async function sellTier(w: World, c: CaseContext) {
  const ids = { tierId: randomUUID(), checkoutId: randomUUID(), entitlementId: randomUUID() };
  const [month, year] = [randomUUID(), randomUUID()];
  const member = c.users.member.id;
  const sub = `sim_sub_${ids.entitlementId}`;
  const session = `sim_cs_${ids.checkoutId}`;
  const end = new Date(Date.now() + 30 * 86_400_000).toISOString();
  await q(c, "INSERT INTO community_tiers (id, community_id, position, name) VALUES ($1, $2, 0, 'Standard')", [
    ids.tierId,
    w.communityId,
  ]);
  await q(
    c,
    `INSERT INTO prices (id, product, community_id, tier_id, interval, currency, amount, provider_price_id)
     VALUES ($1::uuid, 'tier', $3, $4, 'month', 'usd', 900, 'sim_price_' || $1::text), ($2::uuid, 'tier', $3, $4, 'year', 'usd', 9000, 'sim_price_' || $2::text)`,
    [month, year, w.communityId, ids.tierId],
  );
  await q(c, "UPDATE communities SET type = 'paid', price = 9 WHERE id = $1", [w.communityId]);
  await q(c, `INSERT INTO simulated_objects (id, kind, data) VALUES ($1, 'subscription', $2), ($3, 'checkout', $4)`, [
    sub,
    JSON.stringify({
      id: sub,
      customerId: `sim_cus_${member}`,
      status: "active",
      providerPriceId: `sim_price_${month}`,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: false,
      trialEnd: null,
      updatedAt: new Date().toISOString(),
      metadata: { user_id: member, price_id: month, checkout_id: "" },
      interval: "month",
      amount: 900,
      currency: "usd",
    }),
    session,
    JSON.stringify({
      id: session,
      status: "open",
      paymentStatus: "unpaid",
      customerId: `sim_cus_${member}`,
      subscriptionId: null,
      paymentId: null,
      amountTotal: 900,
      currency: "usd",
      interval: "month",
      trialDays: 0,
      providerPriceId: `sim_price_${month}`,
      cancelUrl: "/",
      metadata: { checkout_id: ids.checkoutId, user_id: member, price_id: month },
    }),
  ]);
  await q(
    c,
    `INSERT INTO checkout_sessions (id, user_id, price_id, community_id, provider, provider_session_id)
     VALUES ($1, $2, $3, $4, 'simulated', $5)`,
    [ids.checkoutId, member, month, w.communityId, session],
  );
  await q(
    c,
    `INSERT INTO entitlements (id, user_id, kind, community_id, tier_id, price_id, status, provider, provider_customer_id,
                               provider_subscription_id, amount, currency, interval, current_period_end)
     VALUES ($1, $2, 'community', $3, $4, $5, 'active', 'simulated', $6, $7, 900, 'usd', 'month', $8)`,
    [ids.entitlementId, member, w.communityId, ids.tierId, month, `sim_cus_${member}`, sub, end],
  );
  sales.set(w.communityId, ids);
}

/** A course page: its lesson plays (video URL sent) only when open. */
function lessonShown(res: Res, w: World, course: "free" | "paid" | "draft", label: string | null) {
  expect(res.json.course.id).toBe(w.courses[course].id);
  const lesson = res.json.modules[0].lessons[0];
  expect(lesson.id).toBe(w.courses[course].lessonId);
  if (label === "open") {
    expect(lesson.locked).toBe(false);
    expect(lesson.video_url).toBe(`https://videos.example.test/${w.token}.mp4`);
  } else {
    expect(lesson.locked).toBe(true);
    expect(lesson.video_url).toBeNull();
    expect(res.text).not.toContain(`${w.token}.mp4`);
  }
}

const mediaKey = (w: World, post: "pub" | "members") => `community-assets/${w.communityId}/posts/${w.posts[post]}.png`;

/** An image attached to one of the world's posts, stored and recorded as an upload would be. */
async function storePostImage(w: World, c: CaseContext, post: "pub" | "members") {
  const key = mediaKey(w, post);
  await c.t.app.ctx.storage.put(key, c.png, "image/png");
  await c.t.database.pool.query(
    `INSERT INTO media_files (key, owner_id, community_id, purpose, content_type, size, status, post_id)
     VALUES ($1, $2, $3, 'post', 'image/png', $4, 'ready', $5)`,
    [key, c.users.author.id, w.communityId, c.png.length, w.posts[post]],
  );
}
