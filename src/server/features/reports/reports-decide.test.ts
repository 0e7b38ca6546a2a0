import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_MESSAGES } from "#shared/reports";
import type { CommunityRole } from "#shared/roles";
import { createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { reportsKit, type User } from "./reports.test-helpers";

/*
 * Deciding reports (issue 22) through the HTTP app: each action and what it does to the item, who
 * is told what (the author the reason, every reporter the outcome, nobody who acted), the role
 * matrix of every reports route, and a second decision answering 409.
 */

let t: TestApp;
let k: ReturnType<typeof reportsKit>;
beforeAll(async () => {
  t = await createTestApp();
  k = reportsKit(t);
});
afterAll(() => t.close());

/** A community with every role, a post by a member reported by `count` others (threshold 2: hidden at 2). */
async function reportedPost(count = 2) {
  const c = await k.community({ roles: ["admin", "moderator", "member", "guest"] });
  await k.http.put(`/api/communities/${c.id}/reports/settings`, { hide_threshold: 2 }, { cookie: c.owner.cookie });
  const author = await k.join(c.id);
  const postId = await k.post(c.id, author, "buy cheap things now");
  const reporters: User[] = [];
  for (let i = 0; i < count; i++) {
    const r = await k.join(c.id);
    reporters.push(r);
    expect((await k.report(r, { target: "post", target_id: postId })).status).toBe(201);
  }
  const kase = await k.caseOf(postId);
  return { c, author, postId, reporters, caseId: kase.id };
}

const postState = async (postId: string) =>
  (
    await k.q<{ hidden: boolean; deleted: boolean }>(
      `SELECT hidden_at IS NOT NULL AS hidden, deleted_at IS NOT NULL AS deleted FROM posts WHERE id = $1`,
      [postId],
    )
  )[0];

describe("deciding a report", () => {
  it("dismiss shows the hidden post again; the reporters hear it was left up", async () => {
    const { c, author, postId, reporters, caseId } = await reportedPost();
    expect(await postState(postId)).toEqual({ hidden: true, deleted: false });
    const res = await k.decide(c.id, caseId, c.moderator!, "dismiss");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("dismissed");
    expect(res.body.hidden).toBe(false);
    expect(await postState(postId)).toEqual({ hidden: false, deleted: false });
    expect((await k.http.get(`/api/posts/${postId}`, { cookie: reporters[0].cookie })).status).toBe(200);
    for (const r of reporters) {
      const [n] = await k.notices(r, "report_outcome");
      expect(n.title).toBe(REPORT_MESSAGES.outcomeNotice("post", "dismissed"));
      expect(n.actor_id).toBeNull();
    }
    expect(await k.notices(author, "content_removed")).toHaveLength(0);
    // Decided: a second decision is refused.
    const again = await k.decide(c.id, caseId, c.owner, "remove", "spam");
    expect(again.status).toBe(409);
    expect(await postState(postId)).toEqual({ hidden: false, deleted: false });
  });

  it("remove deletes the post; the author is told the reason, the reporters the outcome, nobody who acted", async () => {
    const { c, author, postId, reporters, caseId } = await reportedPost();
    const res = await k.decide(c.id, caseId, c.moderator!, "remove", "Rule 2: no advertising");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("removed");
    expect(await postState(postId)).toMatchObject({ deleted: true });
    const [told] = await k.notices(author, "content_removed");
    expect(told.title).toContain("Rule 2: no advertising");
    expect(told.body).toBe("buy cheap things now");
    expect(told.actor_id).toBeNull();
    // The author sees it through the API, with no reporter or moderator named.
    const list = await k.http.get("/api/notifications", { cookie: author.cookie });
    const item = list.body.items.find((n: { type: string }) => n.type === "content_removed");
    expect(item.title).toContain("Rule 2: no advertising");
    expect(item.actor).toBeNull();
    const seen = JSON.stringify(list.body);
    for (const u of [...reporters, c.moderator!]) {
      expect(seen).not.toContain(u.id);
      expect(seen).not.toContain(u.username);
    }
    for (const r of reporters) {
      const out = await k.http.get("/api/notifications", { cookie: r.cookie });
      const n = out.body.items.find((x: { type: string }) => x.type === "report_outcome");
      expect(n.title).toBe(REPORT_MESSAGES.outcomeNotice("post", "removed"));
      expect(n.actor).toBeNull();
      expect(JSON.stringify(out.body)).not.toContain(c.moderator!.username);
    }
  });

  it("warn records a warning, tells the author, and shows the post again", async () => {
    const { c, author, postId, reporters, caseId } = await reportedPost();
    const res = await k.decide(c.id, caseId, c.moderator!, "warn", "Keep it civil");
    expect(res.body.status).toBe("warned");
    expect(
      await k.q(`SELECT reason FROM user_warnings WHERE community_id = $1 AND user_id = $2`, [c.id, author.id]),
    ).toEqual([{ reason: "Keep it civil" }]);
    const [n] = await k.notices(author, "user_warned");
    expect(n.title).toContain("Keep it civil");
    expect(n.actor_id).toBeNull();
    expect(await postState(postId)).toEqual({ hidden: false, deleted: false });
    expect((await k.notices(reporters[0], "report_outcome"))[0].title).toBe(
      REPORT_MESSAGES.outcomeNotice("post", "actioned"),
    );
  });

  it("ban bans the author and removes the item (owner and admin only); moderators may not", async () => {
    const { c, author, postId, caseId } = await reportedPost();
    const refused = await k.decide(c.id, caseId, c.moderator!, "ban", "Spam account");
    expect(refused.status).toBe(403);
    expect((await k.caseOf(postId)).status).toBe("open");
    const res = await k.decide(c.id, caseId, c.admin!, "ban", "Spam account");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("banned");
    expect(
      await k.q(`SELECT reason FROM community_bans WHERE community_id = $1 AND user_id = $2`, [c.id, author.id]),
    ).toEqual([{ reason: "Spam account" }]);
    expect(
      await k.q(`SELECT 1 FROM community_members WHERE community_id = $1 AND user_id = $2`, [c.id, author.id]),
    ).toHaveLength(0);
    expect(await postState(postId)).toMatchObject({ deleted: true });
  });

  it("respects the role hierarchy: an admin cannot ban the owner through a report", async () => {
    const c = await k.community({ roles: ["admin"] });
    const postId = await k.post(c.id, c.owner);
    await k.report(await k.join(c.id), { target: "post", target_id: postId });
    const kase = await k.caseOf(postId);
    expect((await k.decide(c.id, kase.id, c.admin!, "ban", "no")).status).toBe(403);
    expect((await k.caseOf(postId)).status).toBe("open");
    expect(await postState(postId)).toEqual({ hidden: false, deleted: false });
  });

  it("removes a comment and a message; a profile cannot be removed, only warned or banned", async () => {
    const c = await k.community({ roles: ["moderator", "member"] });
    const author = await k.join(c.id);
    const postId = await k.post(c.id, c.owner);
    const commentId = await k.comment(postId, author, "mean comment");
    const [messageId] = await k.conversation(author, c.member!, [[0, "mean message"]]);
    await k.report(c.member!, { target: "comment", target_id: commentId });
    await k.report(c.member!, { target: "message", target_id: messageId, community_id: c.id });
    await k.report(c.member!, { target: "profile", target_id: author.id, community_id: c.id });
    const byTarget = async (id: string) => (await k.caseOf(id)).id;
    expect((await k.decide(c.id, await byTarget(commentId), c.moderator!, "remove", "Rule 1")).status).toBe(200);
    expect((await k.decide(c.id, await byTarget(messageId), c.moderator!, "remove", "Rule 1")).status).toBe(200);
    const profile = await k.decide(c.id, await byTarget(author.id), c.moderator!, "remove", "Rule 1");
    expect(profile.status).toBe(400);
    expect(profile.body.error.message).toBe(REPORT_MESSAGES.cannotRemoveProfile);
    expect((await k.decide(c.id, await byTarget(author.id), c.moderator!, "warn", "Rule 3")).status).toBe(200);
    expect(await k.q(`SELECT 1 FROM comments WHERE id = $1 AND deleted_at IS NOT NULL`, [commentId])).toHaveLength(1);
    expect(
      await k.q(`SELECT 1 FROM direct_messages WHERE id = $1 AND deleted_at IS NOT NULL`, [messageId]),
    ).toHaveLength(1);
    expect((await k.notices(author, "content_removed")).map((n) => n.title)).toEqual([
      expect.stringContaining("comment"),
      expect.stringContaining("message"),
    ]);
    expect(await k.q(`SELECT 1 FROM posts WHERE id = $1 AND comments_count = 0`, [postId])).toHaveLength(1);
  });

  it("needs a reason for everything but dismiss", async () => {
    const { c, caseId } = await reportedPost(1);
    const res = await k.decide(c.id, caseId, c.owner, "remove", "");
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(REPORT_MESSAGES.reasonRequired);
  });

  it("lets only the owner decide a case about their own content", async () => {
    const c = await k.community({ roles: ["moderator"] });
    const modPost = await k.post(c.id, c.moderator!);
    const ownerPost = await k.post(c.id, c.owner);
    const r = await k.join(c.id);
    await k.report(r, { target: "post", target_id: modPost });
    await k.report(r, { target: "post", target_id: ownerPost });
    const own = await k.decide(c.id, (await k.caseOf(modPost)).id, c.moderator!, "dismiss");
    expect(own.status).toBe(403);
    expect(own.body.error.message).toBe(REPORT_MESSAGES.cannotDecideOwn);
    expect((await k.decide(c.id, (await k.caseOf(ownerPost)).id, c.owner, "dismiss")).status).toBe(200);
  });

  it("answers two decisions at once with one 200 and one 409", async () => {
    const { c, caseId, reporters } = await reportedPost();
    const [a, b] = await Promise.all([
      k.decide(c.id, caseId, c.owner, "dismiss"),
      k.decide(c.id, caseId, c.admin!, "warn", "careful"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await k.notices(reporters[0], "report_outcome")).toHaveLength(1);
  });
});

describe("who may use each reports route", () => {
  const roles: (CommunityRole | "outsider")[] = ["owner", "admin", "moderator", "member", "guest", "outsider"];
  const expected = {
    queue: { owner: 200, admin: 200, moderator: 200, member: 403, guest: 403, outsider: 403 },
    count: { owner: 200, admin: 200, moderator: 200, member: 403, guest: 403, outsider: 403 },
    settings: { owner: 200, admin: 200, moderator: 403, member: 403, guest: 403, outsider: 403 },
    putSettings: { owner: 200, admin: 200, moderator: 403, member: 403, guest: 403, outsider: 403 },
    dismiss: { owner: 200, admin: 200, moderator: 200, member: 403, guest: 403, outsider: 403 },
    ban: { owner: 200, admin: 200, moderator: 403, member: 403, guest: 403, outsider: 403 },
  } as const;

  it("matches the matrix in docs/authorization.md, and hides a private community's queue from outsiders", async () => {
    const c = await k.community({ roles: ["admin", "moderator", "member", "guest"] });
    const people: Record<(typeof roles)[number], User> = {
      owner: c.owner,
      admin: c.admin!,
      moderator: c.moderator!,
      member: c.member!,
      guest: c.guest!,
      outsider: await signedInUser(t),
    };
    const author = await k.join(c.id);
    const reporter = await k.join(c.id);
    const cases: string[] = [];
    for (let i = 0; i < roles.length * 2; i++) {
      const postId = await k.post(c.id, author, `post ${i}`);
      await k.report(reporter, { target: "post", target_id: postId });
      cases.push((await k.caseOf(postId)).id);
    }
    for (const [i, role] of roles.entries()) {
      const who = people[role];
      const got = {
        queue: (await k.queue(c.id, who)).status,
        count: (await k.http.get(`/api/communities/${c.id}/reports/count`, { cookie: who.cookie })).status,
        settings: (await k.http.get(`/api/communities/${c.id}/reports/settings`, { cookie: who.cookie })).status,
        putSettings: (
          await k.http.put(`/api/communities/${c.id}/reports/settings`, { hide_threshold: 4 }, { cookie: who.cookie })
        ).status,
        dismiss: (await k.decide(c.id, cases[2 * i], who, "dismiss")).status,
        ban: (await k.decide(c.id, cases[2 * i + 1], who, "ban", "reason")).status,
      };
      expect(got, role).toEqual(Object.fromEntries(Object.entries(expected).map(([key, v]) => [key, v[role]])));
    }
    const secret = await k.community({ private: true });
    expect((await k.queue(secret.id, people.outsider)).status).toBe(404);
    expect((await k.http.get(`/api/communities/${secret.id}/reports`)).status).toBe(401);
  }, 60_000);
});
