import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { PAYMENT_MESSAGES } from "#shared/payments";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { connectSse, type SseClient } from "#server/test/sse";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;

async function community(owner: User, name = `Club ${Date.now().toString(36)}`) {
  const res = await http.post("/api/communities", { name }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string; slug: string };
}
const join = (c: { id: string }, u: User) => http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
const leave = (c: { id: string }, u: User) => http.post(`/api/communities/${c.id}/leave`, {}, { cookie: u.cookie });
const setRole = (c: { id: string }, actor: User, target: User, role: string) =>
  http.patch(`/api/communities/${c.id}/members/${target.id}`, { role }, { cookie: actor.cookie });
const memberCount = async (c: { id: string }) =>
  (await t.database.pool.query(`SELECT member_count FROM communities WHERE id = $1`, [c.id])).rows[0].member_count;

describe("joining and leaving", () => {
  it("join creates a member row, leave clears it, and the counter follows", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    const joined = await join(c, u);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ role: "member", joined: true, slug: c.slug });
    expect(await memberCount(c)).toBe(2);
    // Joining twice changes nothing.
    expect((await join(c, u)).body).toMatchObject({ role: "member", joined: false });
    expect(await memberCount(c)).toBe(2);
    expect((await leave(c, u)).status).toBe(200);
    expect(await memberCount(c)).toBe(1);
    const again = await leave(c, u);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(MSG.notAMember);
  });

  it("signed-out join and leave get 401", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    expect((await http.post(`/api/communities/${c.id}/join`, {})).status).toBe(401);
    expect((await http.post(`/api/communities/${c.id}/leave`, {})).status).toBe(401);
  });

  it("a paid community is joined through a checkout (402); with a free tier JOIN joins free", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    const tier = { description: "", annual_amount: null, trial_days: 0 };
    const paidOnly = {
      currency: "usd",
      grace_days: 7,
      tiers: [{ ...tier, name: "VIP", free: false, monthly_amount: 4900 }],
    };
    expect((await http.put(`/api/communities/${c.id}/pricing`, paidOnly, { cookie: owner.cookie })).status).toBe(200);
    const refused = await join(c, u);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe(PAYMENT_MESSAGES.checkoutNeeded);
    expect(await memberCount(c)).toBe(1);
    const withFree = {
      ...paidOnly,
      tiers: [{ ...tier, name: "Free", free: true, monthly_amount: null }, ...paidOnly.tiers],
    };
    expect((await http.put(`/api/communities/${c.id}/pricing`, withFree, { cookie: owner.cookie })).status).toBe(200);
    expect((await join(c, u)).body).toMatchObject({ role: "member", joined: true });
  });

  it("a private community is joined only through an invite", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    const res = await join(c, u);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(MSG.privateCommunityBody);
    expect(await memberCount(c)).toBe(1);
  });

  it("the only owner may not leave; one of two owners may", async () => {
    const owner = await signedInUser(t);
    const second = await signedInUser(t);
    const c = await community(owner);
    const res = await leave(c, owner);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(MSG.onlyOwnerCannotLeave);
    await join(c, second);
    expect((await setRole(c, owner, second, "owner")).status).toBe(200);
    // Both leaving at once: exactly one succeeds, the community keeps an owner.
    const both = await Promise.all([leave(c, owner), leave(c, second)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM community_members WHERE community_id = $1 AND role = 'owner'`,
      [c.id],
    );
    expect(owners.rows[0].n).toBe(1);
  });

  it("the community view offers leaving only where the server allows it (SPEC §2, §4)", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    const mayLeave = async (u: User) =>
      (await http.get(`/api/communities/${c.id}`, { cookie: u.cookie })).body.viewer.may_leave as boolean;
    expect(await mayLeave(owner)).toBe(false);
    expect(await mayLeave(member)).toBe(true);
    // The only owner's leave is refused with the spec's message, and they stay the owner.
    const refused = await leave(c, owner);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(MSG.onlyOwnerCannotLeave);
    expect((await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body.viewer.role).toBe("owner");
    // With a second owner, either may go: the view says so and the server agrees.
    expect((await setRole(c, owner, member, "owner")).status).toBe(200);
    expect(await mayLeave(owner)).toBe(true);
    expect(await mayLeave(member)).toBe(true);
    expect((await leave(c, owner)).status).toBe(200);
    expect(await mayLeave(member)).toBe(false);
  });

  it("keeps member_count exact under concurrent joins and leaves", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const users = await Promise.all(Array.from({ length: 12 }, () => signedInUser(t)));
    await Promise.all(users.flatMap((u) => [join(c, u), join(c, u)]));
    expect(await memberCount(c)).toBe(13);
    await Promise.all(users.slice(0, 7).flatMap((u, i) => (i % 2 ? [leave(c, u), join(c, u)] : [leave(c, u)])));
    const actual = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM community_members WHERE community_id = $1`,
      [c.id],
    );
    expect(await memberCount(c)).toBe(actual.rows[0].n);
  });

  it("a removed and banned user cannot join again until the ban is lifted", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    await join(c, u);
    const ban = await http.post(
      `/api/communities/${c.id}/bans`,
      { user_id: u.id, reason: "spam" },
      { cookie: owner.cookie },
    );
    expect(ban.status).toBe(204);
    expect((await join(c, u)).status).toBe(403);
    const bans = await http.get(`/api/communities/${c.id}/bans`, { cookie: owner.cookie });
    expect(bans.body).toMatchObject([{ user_id: u.id, reason: "spam" }]);
    expect((await http.delete(`/api/communities/${c.id}/bans/${u.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await join(c, u)).status).toBe(200);
  });
});

describe("the members table", () => {
  it("is for members only, paged oldest first, searchable", async () => {
    const owner = await signedInUser(t, { name: "Olive Owner" });
    const c = await community(owner);
    const users = [];
    for (let i = 0; i < 5; i++) {
      const u = await signedInUser(t);
      await join(c, u);
      users.push(u);
    }
    const outsider = await signedInUser(t);
    const hidden = await http.get(`/api/communities/${c.id}/members`, { cookie: outsider.cookie });
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.message).toBe(MSG.membersHidden);
    expect((await http.get(`/api/communities/${c.id}/members`)).status).toBe(403);

    const page1 = await http.get(`/api/communities/${c.id}/members?limit=4`, { cookie: users[0].cookie });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((m: { user_id: string }) => m.user_id)).toEqual([
      owner.id,
      ...users.slice(0, 3).map((u) => u.id),
    ]);
    expect(page1.body.items[0]).toMatchObject({ role: "owner", username: owner.username, full_name: "Olive Owner" });
    const page2 = await http.get(`/api/communities/${c.id}/members?limit=4&cursor=${page1.body.next_cursor}`, {
      cookie: users[0].cookie,
    });
    expect(page2.body.items.map((m: { user_id: string }) => m.user_id)).toEqual(users.slice(3).map((u) => u.id));
    expect(page2.body.next_cursor).toBeNull();

    const found = await http.get(`/api/communities/${c.id}/members?q=olive`, { cookie: users[0].cookie });
    expect(found.body.items.map((m: { user_id: string }) => m.user_id)).toEqual([owner.id]);
    const owners = await http.get(`/api/communities/${c.id}/members?role=owner`, { cookie: users[0].cookie });
    expect(owners.body.items).toHaveLength(1);
  });
});

describe("role changes (SPEC §6)", () => {
  it("follow the hierarchy with the spec's messages", async () => {
    const owner = await signedInUser(t);
    const [admin, admin2, mod, member, other] = await Promise.all(Array.from({ length: 5 }, () => signedInUser(t)));
    const c = await community(owner);
    for (const u of [admin, admin2, mod, member]) await join(c, u);
    expect((await setRole(c, owner, admin, "admin")).status).toBe(200);
    expect((await setRole(c, owner, admin2, "admin")).status).toBe(200);
    expect((await setRole(c, admin, mod, "moderator")).status).toBe(200);

    const expectRefusal = async (res: Awaited<ReturnType<typeof setRole>>, status: number, message: string) => {
      expect(res.status).toBe(status);
      expect(res.body.error.message).toBe(message);
    };
    // Below admin: no role changes at all.
    await expectRefusal(await setRole(c, mod, member, "moderator"), 403, MSG.insufficientPermissions);
    await expectRefusal(await setRole(c, member, member, "admin"), 403, MSG.insufficientPermissions);
    // Only an owner assigns owner.
    await expectRefusal(await setRole(c, admin, member, "owner"), 403, MSG.onlyOwnersAssignOwner);
    // Never yourself.
    await expectRefusal(await setRole(c, admin, admin, "member"), 403, MSG.cannotChangeOwnRole);
    await expectRefusal(await setRole(c, owner, owner, "admin"), 403, MSG.cannotChangeOwnRole);
    // Only others ranked strictly below.
    await expectRefusal(await setRole(c, admin, admin2, "member"), 403, MSG.cannotChangeRoleOfPeer);
    await expectRefusal(await setRole(c, admin, owner, "member"), 403, MSG.cannotChangeRoleOfPeer);
    // Never guest.
    await expectRefusal(await setRole(c, owner, member, "guest"), 403, MSG.cannotAssignGuest);
    // Not a member of this community.
    await expectRefusal(await setRole(c, owner, other, "member"), 404, MSG.notAMember);
    // Allowed: admin changes a moderator and a member; owner makes an owner.
    expect((await setRole(c, admin, mod, "member")).status).toBe(200);
    expect((await setRole(c, admin, member, "admin")).status).toBe(200);
    expect((await setRole(c, owner, admin2, "owner")).status).toBe(200);
    const roles = await t.database.pool.query(`SELECT user_id, role FROM community_members WHERE community_id = $1`, [
      c.id,
    ]);
    const byUser = Object.fromEntries(roles.rows.map((r) => [r.user_id, r.role]));
    expect(byUser).toMatchObject({
      [owner.id]: "owner",
      [admin.id]: "admin",
      [admin2.id]: "owner",
      [mod.id]: "member",
      [member.id]: "admin",
    });
    expect((await setRole(c, owner, member, "superuser" as string)).status).toBe(400);
  });

  it("removal follows the same hierarchy", async () => {
    const owner = await signedInUser(t);
    const [admin, admin2, member] = await Promise.all(Array.from({ length: 3 }, () => signedInUser(t)));
    const c = await community(owner);
    for (const u of [admin, admin2, member]) await join(c, u);
    await setRole(c, owner, admin, "admin");
    await setRole(c, owner, admin2, "admin");
    const remove = (actor: User, target: User) =>
      http.delete(`/api/communities/${c.id}/members/${target.id}`, { cookie: actor.cookie });
    expect((await remove(member, admin)).status).toBe(403);
    expect((await remove(admin, admin2)).status).toBe(403);
    expect((await remove(admin, owner)).status).toBe(403);
    expect((await remove(admin, member)).status).toBe(204);
    expect((await remove(owner, admin2)).status).toBe(204);
    expect(await memberCount(c)).toBe(2);
  });
});

describe("text posts in a community", () => {
  it("auto-join a signed-in non-member of a public community on their first post", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    const blank = await http.post(`/api/communities/${c.id}/posts`, { content: "  \n " }, { cookie: u.cookie });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe(MSG.enterContent);
    expect(await memberCount(c)).toBe(1);
    const res = await http.post(`/api/communities/${c.id}/posts`, { content: "Hi all" }, { cookie: u.cookie });
    expect(res.status).toBe(201);
    expect(await memberCount(c)).toBe(2);
    const feed = await http.get(`/api/communities/${c.id}/posts`);
    expect(feed.body.items).toMatchObject([{ content: "Hi all", author: { username: u.username } }]);
  });

  it("hide members-only and admins-only posts from those who may not see them", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    for (const visibility of ["public", "members", "admins"]) {
      await http.post(`/api/communities/${c.id}/posts`, { content: visibility, visibility }, { cookie: owner.cookie });
    }
    const seen = async (cookie?: string) =>
      (await http.get(`/api/communities/${c.id}/posts`, { cookie })).body.items.map(
        (p: { content: string }) => p.content,
      );
    expect(await seen()).toEqual(["public"]);
    expect(await seen(member.cookie)).toEqual(["members", "public"]);
    expect(await seen(owner.cookie)).toEqual(["admins", "members", "public"]);
  });
});

describe("GET /api/me/communities", () => {
  let base: string;
  const streams: SseClient[] = [];
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => {
    for (const s of streams) s.close();
  });

  type Mine = { id: string; name: string; role: string; visibility: string; unread_count: number };
  const mine = async (u: User) => {
    const res = await http.get("/api/me/communities", { cookie: u.cookie });
    expect(res.status).toBe(200);
    return res.body.items as Mine[];
  };
  const named = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

  it("needs a session", async () => {
    const res = await http.get("/api/me/communities");
    expect(res.status).toBe(401);
  });

  it("lists every community one belongs to with one's role, managed ones first, then by name", async () => {
    const me = await signedInUser(t);
    const other = await signedInUser(t);
    const owned = await community(me, named("Zeta own"));
    const adminOf = await community(other, named("Beta adm"));
    const memberOf = await community(other, named("Alpha mem"));
    const modOf = await community(other, named("Gamma mod"));
    const notMine = await community(other, named("Delta not"));
    for (const c of [adminOf, memberOf, modOf]) await join(c, me);
    expect((await setRole(adminOf, other, me, "admin")).status).toBe(200);
    expect((await setRole(modOf, other, me, "moderator")).status).toBe(200);

    const list = await mine(me);
    expect(list.map((c) => [c.id, c.role])).toEqual([
      [adminOf.id, "admin"],
      [owned.id, "owner"],
      [memberOf.id, "member"],
      [modOf.id, "moderator"],
    ]);
    expect(list.map((c) => c.id)).not.toContain(notMine.id);
    expect(list[0]).toMatchObject({ slug: adminOf.slug, visibility: "public", unread_count: 0, icon_url: null });
  });

  it("lists private communities to their members only, and never a word of them to anyone else", async () => {
    const owner = await signedInUser(t);
    const invited = await signedInUser(t);
    const outsider = await signedInUser(t);
    const secretName = named("Hidden");
    const c = await community(owner, secretName);
    const patched = await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect(patched.status).toBe(200);
    const code = patched.body.invite_code as string;
    expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: invited.cookie })).status).toBe(200);

    expect((await mine(owner)).find((x) => x.id === c.id)).toMatchObject({ role: "owner", visibility: "private" });
    expect((await mine(invited)).find((x) => x.id === c.id)).toMatchObject({ role: "member", visibility: "private" });
    const res = await http.get("/api/me/communities", { cookie: outsider.cookie });
    expect(res.body.items).toEqual([]);
    expect(res.raw.body).not.toContain(secretName);
    expect(res.raw.body).not.toContain(c.id);
  });

  it("drops communities one left, was removed or banned from, or that were deleted", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const [left, removed, banned, deleted, kept] = await Promise.all(
      ["Left", "Removed", "Banned", "Deleted", "Kept"].map((p) => community(owner, named(p))),
    );
    for (const c of [left, removed, banned, deleted, kept]) await join(c, u);
    expect((await mine(u)).map((c) => c.id).sort()).toEqual(
      [left, removed, banned, deleted, kept].map((c) => c.id).sort(),
    );

    expect((await leave(left, u)).status).toBe(200);
    expect((await http.delete(`/api/communities/${removed.id}/members/${u.id}`, { cookie: owner.cookie })).status).toBe(
      204,
    );
    expect(
      (await http.post(`/api/communities/${banned.id}/bans`, { user_id: u.id }, { cookie: owner.cookie })).status,
    ).toBe(204);
    expect((await http.delete(`/api/communities/${deleted.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await mine(u)).map((c) => c.id)).toEqual([kept.id]);
  });

  it("marks unread activity: the caller's unread notifications about each community", async () => {
    const owner = await signedInUser(t);
    const a = await community(owner, named("Busy"));
    const b = await community(owner, named("Quiet"));
    await join(a, await signedInUser(t));
    await join(a, await signedInUser(t));
    const list = await mine(owner);
    expect(list.find((c) => c.id === a.id)?.unread_count).toBe(2);
    expect(list.find((c) => c.id === b.id)?.unread_count).toBe(0);
    expect((await http.post("/api/notifications/read-all", {}, { cookie: owner.cookie })).status).toBe(200);
    expect((await mine(owner)).find((c) => c.id === a.id)?.unread_count).toBe(0);
  });

  it("announces a memberships event on one's own stream on join, leave, role change, removal and deletion", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const bystander = await signedInUser(t);
    const c = await community(owner, named("Live"));
    const stream = await connectSse(`${base}/api/realtime/notifications`, { cookie: u.cookie });
    const quiet = await connectSse(`${base}/api/realtime/notifications`, { cookie: bystander.cookie });
    streams.push(stream, quiet);
    await stream.next((f) => f.event === "ready");
    await quiet.next((f) => f.event === "ready");
    const expectEvent = async (what: string) => {
      const from = stream.frames.length;
      return async () => {
        const frame = await stream.next((f) => f.event === "memberships", { from, ms: 5_000 }).catch(() => null);
        expect(frame, `memberships event after ${what}`).not.toBeNull();
        expect(frame!.data).toEqual({ type: "memberships" });
      };
    };

    let seen = await expectEvent("join");
    await join(c, u);
    await seen();
    seen = await expectEvent("role change");
    expect((await setRole(c, owner, u, "moderator")).status).toBe(200);
    await seen();
    seen = await expectEvent("leave");
    expect((await leave(c, u)).status).toBe(200);
    await seen();
    seen = await expectEvent("removal");
    await join(c, u);
    expect((await http.delete(`/api/communities/${c.id}/members/${u.id}`, { cookie: owner.cookie })).status).toBe(204);
    await seen();
    seen = await expectEvent("deletion");
    await join(c, u);
    expect((await http.delete(`/api/communities/${c.id}`, { cookie: owner.cookie })).status).toBe(204);
    await seen();
    // Only the people concerned hear of it.
    expect(quiet.frames.filter((f) => f.event === "memberships")).toEqual([]);
  });
});
