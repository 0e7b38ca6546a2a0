import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "../../../shared/messages";
import { api, createTestApp, signedInUser, type TestApp } from "../../test/harness";

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
    expect(joined.body).toMatchObject({ role: "member", joined: true, payment_notice: null, slug: c.slug });
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

  it("a paid community answers the spec's payment notice and joins anyway", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    await http.patch(`/api/communities/${c.id}`, { type: "paid", price: 49 }, { cookie: owner.cookie });
    const res = await join(c, u);
    expect(res.body).toMatchObject({ role: "member", joined: true, payment_notice: MSG.paymentComingSoon });
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
