/**
 * Abuse of ordinary features (issue 15, items 6, 8 and 9), through the HTTP app with the rate
 * limits on: the creator trial starts once per account and is limited like community creation;
 * a ban reaches a user who left before it (or never joined) and keeps them out by every door; a
 * post's share_count counts each sharer once, and visitors' share calls are limited per address.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { RATE_RULES } from "#server/lib/rate-limit";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "#server/test/harness";
import { makeSpace, ok, type Space, type User } from "./world";

let t: TestApp;
let http: ReturnType<typeof api>;
let owner: User;
let space: Space;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: true });
  http = api(t.app);
  owner = await signedInUser(t, { name: "Abuse Owner" });
  space = await makeSpace(t, owner, `Abuse ${Date.now().toString(36)}`);
});
afterAll(() => t.close());

const count = async (text: string, params: unknown[]) =>
  (await t.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${text}) x`, params)).rows[0].n;

describe("item 6: the creator trial", () => {
  const trial = (u: User, plan = "annual", requestId: string = randomUUID()) =>
    http.post("/api/billing/trial", { plan, request_id: requestId }, { cookie: u.cookie });

  it("starts once per account: another purchase neither restarts nor extends it, nor makes a community", async () => {
    const u = await signedInUser(t);
    const { checkout_url, ...first } = ok(await trial(u, "annual"), 201).body;
    expect(checkout_url).toBeNull();
    const again = await trial(u, "monthly");
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "CONFLICT", message: MSG.trialAlreadyStarted });
    // The plan, its end and its community are the first purchase's.
    expect(ok(await http.get("/api/billing/plan", { cookie: u.cookie })).body).toEqual(first);
    expect(await count(`SELECT 1 FROM communities WHERE created_by = $1`, [u.id])).toBe(1);
    // The first purchase's own retry still answers what it made.
    const [{ request_id }] = (
      await t.database.pool.query(`SELECT request_id FROM creator_plans WHERE user_id = $1`, [u.id])
    ).rows;
    expect(ok(await trial(u, "annual", request_id)).body).toEqual({ ...first, checkout_url: null });
  });

  it(`is limited like community creation (${RATE_RULES.communityCreatePerUser.limit} an hour per user), then 429`, async () => {
    const u = await signedInUser(t);
    const { limit, windowSeconds } = RATE_RULES.communityCreatePerUser;
    // Twice the limit and more: a fixed window that ends mid-test restarts the count once at most.
    const answers: Awaited<ReturnType<typeof trial>>[] = [];
    while (answers.length < 2 * limit + 2 && answers.at(-1)?.status !== 429) answers.push(await trial(u));
    const statuses = answers.map((a) => a.status);
    expect(statuses.at(-1)).toBe(429);
    expect(answers.at(-1)?.body.error.code).toBe("RATE_LIMITED");
    expect(Number(answers.at(-1)?.headers["retry-after"])).toBeLessThanOrEqual(windowSeconds);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.slice(0, -1).every((s) => s === 201 || s === 409)).toBe(true);
    expect(await count(`SELECT 1 FROM communities WHERE created_by = $1`, [u.id])).toBe(1);
  });
});

describe("item 8: bans", () => {
  const join = (u: User) => http.post(`/api/communities/${space.id}/join`, {}, { cookie: u.cookie });
  const ban = (userId: string) =>
    http.post(`/api/communities/${space.id}/bans`, { user_id: userId, reason: "evasion" }, { cookie: owner.cookie });
  const isMember = async (u: User) =>
    (await count(`SELECT 1 FROM community_members WHERE community_id = $1 AND user_id = $2`, [space.id, u.id])) === 1;

  /** Every door into the community, each refused with 403 and no membership made. */
  async function expectKeptOut(u: User) {
    const doors = [
      await join(u),
      await http.post(`/api/invites/${space.inviteCode}/accept`, {}, { cookie: u.cookie }),
      // Taking part in a public community joins it: a like, a comment, a vote.
      await http.post(`/api/posts/${space.postId}/like`, {}, { cookie: u.cookie }),
      await http.post(`/api/posts/${space.postId}/comments`, { content: "back again" }, { cookie: u.cookie }),
      await http.post(`/api/posts/${space.pollId}/vote`, { option_index: 0 }, { cookie: u.cookie }),
    ];
    expect(doors.map((d) => d.status)).toEqual([403, 403, 403, 403, 403]);
    expect(doors[0].body.error.message).toBe(MSG.bannedFromCommunity);
    expect(await isMember(u)).toBe(false);
  }

  it("a member who leaves before the ban is banned all the same and cannot come back in", async () => {
    const u = await signedInUser(t);
    ok(await join(u));
    ok(await http.post(`/api/communities/${space.id}/leave`, {}, { cookie: u.cookie }));
    ok(await ban(u.id), 204);
    const bans = ok(await http.get(`/api/communities/${space.id}/bans`, { cookie: owner.cookie })).body;
    expect(bans).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: u.id, reason: "evasion" })]));
    await expectKeptOut(u);
    // Lifting the ban opens the door again.
    ok(await http.delete(`/api/communities/${space.id}/bans/${u.id}`, { cookie: owner.cookie }), 204);
    ok(await join(u));
  });

  it("a user who never joined can be banned before they do; an unknown user is a 404, not a 500", async () => {
    const u = await signedInUser(t);
    ok(await ban(u.id), 204);
    await expectKeptOut(u);
    const unknown = await ban(`nobody-${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(MSG.userNotFound);
    // Removing (without a ban) still needs a member.
    const remove = await http.delete(`/api/communities/${space.id}/members/${u.id}`, { cookie: owner.cookie });
    expect(remove.status).toBe(404);
    // Nobody bans the owner.
    expect((await ban(owner.id)).status).toBe(403);
  });
});

describe("item 9: share_count", () => {
  const shareCount = async (postId: string) =>
    (await t.database.pool.query<{ n: number }>(`SELECT share_count AS n FROM posts WHERE id = $1`, [postId])).rows[0]
      .n;
  /** A share call from one client address, signed in or not. */
  const shareFrom = async (ip: string, postId: string, cookie?: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/posts/${postId}/share`,
      remoteAddress: ip,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });
    return { status: res.statusCode, body: JSON.parse(res.body || "null") };
  };
  const DAY_MS = 24 * 60 * 60 * 1000;
  const today = () => Math.floor(Date.now() / DAY_MS);

  it("a signed-in user's shares count once per post, however often they share", async () => {
    const before = await shareCount(space.postId);
    const u = await signedInUser(t);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await shareFrom("192.0.2.10", space.postId, u.cookie));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.map((a) => a.body.share_count)).toEqual(Array(20).fill(before + 1));
    expect(await shareCount(space.postId)).toBe(before + 1);
    // Concurrent doubles count once too; another user counts once more.
    const v = await signedInUser(t);
    await Promise.all(Array.from({ length: 10 }, () => shareFrom("192.0.2.11", space.postId, v.cookie)));
    expect(await shareCount(space.postId)).toBe(before + 2);
  });

  it(`visitors: an address counts once per post and day, and its calls are limited (${RATE_RULES.shareAnonymousPerIp.limit} per window, then 429)`, async () => {
    const { limit } = RATE_RULES.shareAnonymousPerIp;
    const post = space.pollId;
    const before = await shareCount(post);
    const day = today();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await shareFrom("198.51.100.77", post)).status);
    // A day that turned mid-test lets the address count once more, never more than that.
    const days = today() - day + 1;
    expect(statuses.slice(0, limit).every((s) => s === 200)).toBe(true);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2 * limit);
    expect(await shareCount(post)).toBe(before + days);
    // Another address is another sharer, and is not limited by the first one's calls.
    const other = await shareFrom("198.51.100.78", post);
    expect(other.status).toBe(200);
    expect(await shareCount(post)).toBe(before + days + 1);
  });
});
