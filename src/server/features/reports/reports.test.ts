import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_LIMITS } from "#shared/messaging";
import { REPORT_LIMITS, REPORT_MESSAGES } from "#shared/reports";
import { createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { reportsKit } from "./reports.test-helpers";

/*
 * Filing reports (issue 22) through the HTTP app: who may report what, one count per person, the
 * hide threshold under concurrent reports (hidden once, told once), one notice per case for the
 * moderators, anonymity, and the queue's view of a reported message (its neighbours only).
 */

let t: TestApp;
let k: ReturnType<typeof reportsKit>;
beforeAll(async () => {
  t = await createTestApp();
  k = reportsKit(t);
});
afterAll(() => t.close());

describe("filing a report", () => {
  it("takes a post, a comment, a message and a profile from someone who may read them", async () => {
    const c = await k.community({ roles: ["member", "moderator"] });
    const author = await k.join(c.id);
    const postId = await k.post(c.id, author);
    const commentId = await k.comment(postId, author);
    const [messageId] = await k.conversation(author, c.member!, [[0, "hello there"]]);
    const filed = [
      await k.report(c.member!, { target: "post", target_id: postId }),
      await k.report(c.member!, { target: "comment", target_id: commentId, reason: "harassment" }),
      await k.report(c.member!, { target: "message", target_id: messageId, community_id: c.id }),
      await k.report(c.member!, {
        target: "profile",
        target_id: author.id,
        community_id: c.id,
        reason: "other",
        text: "fake",
      }),
    ];
    for (const res of filed) {
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: REPORT_MESSAGES.submitted });
    }
    const cases = await k.q<{ target: string; report_count: number; author_id: string; community_id: string }>(
      `SELECT target, report_count, author_id, community_id FROM report_cases WHERE community_id = $1 ORDER BY target`,
      [c.id],
    );
    expect(cases.map((r) => [r.target, r.report_count, r.author_id])).toEqual([
      ["comment", 1, author.id],
      ["message", 1, author.id],
      ["post", 1, author.id],
      ["profile", 1, author.id],
    ]);
  });

  it("counts one person's repeated reports once and says so, storing nothing new", async () => {
    const c = await k.community({ roles: ["member"] });
    const author = await k.join(c.id);
    const postId = await k.post(c.id, author);
    expect((await k.report(c.member!, { target: "post", target_id: postId })).status).toBe(201);
    const again = await k.report(c.member!, { target: "post", target_id: postId, reason: "harassment" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: REPORT_MESSAGES.alreadyReported });
    // Ten at once from the same person still count once.
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => k.report(c.member!, { target: "post", target_id: postId })),
    );
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect((await k.caseOf(postId)).report_count).toBe(1);
    expect(await k.q(`SELECT 1 FROM reports WHERE reporter_id = $1`, [c.member!.id])).toHaveLength(1);
  });

  it("refuses one's own content, and asks which community for a message or profile", async () => {
    const c = await k.community({ roles: ["member"] });
    const postId = await k.post(c.id, c.member!);
    const own = await k.report(c.member!, { target: "post", target_id: postId });
    expect(own.status).toBe(400);
    expect(own.body.error.message).toBe(REPORT_MESSAGES.cannotReportOwn);
    expect(
      (await k.report(c.member!, { target: "profile", target_id: c.member!.id, community_id: c.id })).body.error
        .message,
    ).toBe(REPORT_MESSAGES.cannotReportOwn);
    const [mine] = await k.conversation(c.member!, c.owner, [[0, "my own words"]]);
    expect((await k.report(c.member!, { target: "message", target_id: mine, community_id: c.id })).status).toBe(400);
    const noCommunity = await k.report(c.owner, { target: "message", target_id: mine });
    expect(noCommunity.status).toBe(400);
    expect(noCommunity.body.error.message).toBe(REPORT_MESSAGES.communityRequired);
    const other = await k.report(c.owner, { target: "post", target_id: postId, reason: "other" });
    expect(other.status).toBe(400);
    expect(await k.q(`SELECT 1 FROM report_cases WHERE community_id = $1`, [c.id])).toHaveLength(0);
  });

  it("answers 404 like a missing item for anything the reporter cannot read", async () => {
    const secret = await k.community({ private: true, roles: ["member"] });
    const secretPost = await k.post(secret.id, secret.member!);
    const secretComment = await k.comment(secretPost, secret.member!);
    const open = await k.community({ roles: ["member"] });
    const adminsOnly = (
      await k.http.post(
        `/api/communities/${open.id}/posts`,
        { content: "for admins", visibility: "admins" },
        { cookie: open.owner.cookie },
      )
    ).body.id as string;
    const outsider = await signedInUser(t);
    const stranger = await signedInUser(t);
    const [theirMessage] = await k.conversation(secret.member!, stranger, [[0, "private words"]]);
    const missing = await k.report(outsider, { target: "post", target_id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
    const cases = [
      { target: "post", target_id: secretPost },
      { target: "comment", target_id: secretComment },
      { target: "message", target_id: theirMessage, community_id: secret.id },
      { target: "profile", target_id: secret.member!.id, community_id: secret.id },
      { target: "post", target_id: "not-a-uuid" },
    ];
    for (const body of cases) {
      const res = await k.report(outsider, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    // A member whose role may not read an admins-only post: the same answer.
    expect((await k.report(open.member!, { target: "post", target_id: adminsOnly })).body).toEqual(missing.body);
    // A profile in a community the reported person is not in: the same answer.
    expect(
      (await k.report(open.member!, { target: "profile", target_id: stranger.id, community_id: open.id })).body,
    ).toEqual(missing.body);
    expect(await k.q(`SELECT 1 FROM report_cases WHERE community_id IN ($1, $2)`, [secret.id, open.id])).toHaveLength(
      0,
    );
  });

  it("asks a reader of a public community who is not a member to join first", async () => {
    const c = await k.community({ roles: ["member"] });
    const postId = await k.post(c.id, c.member!);
    const visitor = await signedInUser(t);
    const res = await k.report(visitor, { target: "post", target_id: postId });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(REPORT_MESSAGES.joinToReport);
    expect((await k.http.post("/api/reports", { target: "post", target_id: postId, reason: "spam" })).status).toBe(401);
  });

  it(`limits a person to ${REPORT_LIMITS.perHour} reports an hour`, async () => {
    const limited = await createTestApp({ rateLimits: true });
    try {
      const lk = reportsKit(limited);
      const c = await lk.community({ roles: ["member"] });
      const author = await lk.join(c.id);
      const postId = await lk.post(c.id, author);
      for (let i = 0; i < REPORT_LIMITS.perHour; i++) {
        expect((await lk.report(c.member!, { target: "post", target_id: postId })).status).toBeLessThan(300);
      }
      expect((await lk.report(c.member!, { target: "post", target_id: postId })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("the hide threshold", () => {
  it("hides a post once and tells its author once when many report at the same moment", async () => {
    const c = await k.community({ roles: ["admin", "moderator"] });
    const author = await k.join(c.id);
    const postId = await k.post(c.id, author);
    const reporters = await Promise.all(Array.from({ length: 12 }, () => k.join(c.id)));
    const answers = await Promise.all(reporters.map((u) => k.report(u, { target: "post", target_id: postId })));
    expect(answers.map((r) => r.status)).toEqual(reporters.map(() => 201));
    const kase = await k.caseOf(postId);
    expect(kase.report_count).toBe(12);
    expect(await k.q(`SELECT 1 FROM report_cases WHERE target_id = $1`, [postId])).toHaveLength(1);
    const [row] = await k.q<{ hidden: boolean }>(`SELECT hidden_at IS NOT NULL AS hidden FROM posts WHERE id = $1`, [
      postId,
    ]);
    expect(row.hidden).toBe(true);
    const told = await k.notices(author, "content_hidden");
    expect(told).toHaveLength(1);
    expect(told[0].title).toContain("hidden pending review");
    expect(told[0].actor_id).toBeNull();
    // The moderators hear of the case once, not once per report.
    for (const m of [c.owner, c.admin!, c.moderator!]) expect(await k.notices(m, "report_new")).toHaveLength(1);
    expect(await k.notices(author, "report_new")).toHaveLength(0);
    // One post_deleted on the community's channel so live feeds drop it.
    const events = await k.q(
      `SELECT 1 FROM realtime_events WHERE channel = $1 AND payload->>'type' = 'post_deleted' AND payload->>'post_id' = $2`,
      [`community:${c.id}`, postId],
    );
    expect(events).toHaveLength(1);
  });

  it("hides a comment at the community's own threshold, not before", async () => {
    const c = await k.community();
    expect(
      (await k.http.put(`/api/communities/${c.id}/reports/settings`, { hide_threshold: 2 }, { cookie: c.owner.cookie }))
        .body,
    ).toEqual({ hide_threshold: 2, min_message_level: 1 });
    const author = await k.join(c.id);
    const postId = await k.post(c.id, c.owner);
    const commentId = await k.comment(postId, author);
    const hidden = async () =>
      (await k.q<{ h: boolean }>(`SELECT hidden_at IS NOT NULL AS h FROM comments WHERE id = $1`, [commentId]))[0].h;
    await k.report(await k.join(c.id), { target: "comment", target_id: commentId });
    expect(await hidden()).toBe(false);
    await k.report(await k.join(c.id), { target: "comment", target_id: commentId });
    expect(await hidden()).toBe(true);
    expect(await k.notices(author, "content_hidden")).toHaveLength(1);
  });

  it("never hides a message or a profile, whatever the count", async () => {
    const c = await k.community({ roles: ["member"] });
    await k.http.put(`/api/communities/${c.id}/reports/settings`, { hide_threshold: 1 }, { cookie: c.owner.cookie });
    const author = await k.join(c.id);
    const [m] = await k.conversation(author, c.member!, [[0, "rude"]]);
    expect((await k.report(c.member!, { target: "message", target_id: m, community_id: c.id })).status).toBe(201);
    expect(
      (await k.q<{ d: boolean }>(`SELECT deleted_at IS NULL AS d FROM direct_messages WHERE id = $1`, [m]))[0].d,
    ).toBe(true);
    expect(await k.notices(author, "content_hidden")).toHaveLength(0);
  });
});

describe("the queue", () => {
  it("shows a reported message with only its neighbours, never the rest of the conversation", async () => {
    const c = await k.community({ roles: ["member", "moderator"] });
    const author = await k.join(c.id);
    const n = MESSAGE_LIMITS.reportContext;
    const script: [0 | 1, string][] = Array.from({ length: 11 }, (_, i) => [(i % 2) as 0 | 1, `line ${i}`]);
    const ids = await k.conversation(author, c.member!, script);
    const reported = ids[4]; // one of the author's
    expect((await k.report(c.member!, { target: "message", target_id: reported, community_id: c.id })).status).toBe(
      201,
    );
    const res = await k.queue(c.id, c.moderator!);
    expect(res.status).toBe(200);
    const [item] = res.body.items;
    expect(item.target).toBe("message");
    expect(item.content.body).toBe("line 4");
    expect(item.content.context.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: 2 * n + 1 }, (_, i) => `line ${4 - n + i}`),
    );
    expect(
      item.content.context.filter((m: { reported: boolean }) => m.reported).map((m: { id: string }) => m.id),
    ).toEqual([reported]);
    expect(JSON.stringify(res.body)).not.toContain("line 0");
    expect(item.author.id).toBe(author.id);
    expect(item.reports.map((r: { reporter: { id: string } }) => r.reporter.id)).toEqual([c.member!.id]);
  });

  it("lists open cases first, a keyset page at a time, and counts the open ones", async () => {
    const c = await k.community({ roles: ["moderator"] });
    const author = await k.join(c.id);
    const reporter = await k.join(c.id);
    const posts: string[] = [];
    for (let i = 0; i < REPORT_LIMITS.queuePage + 3; i++) {
      const id = await k.post(c.id, author, `post ${i}`);
      posts.push(id);
      await k.report(reporter, { target: "post", target_id: id });
    }
    const firstCase = await k.caseOf(posts[0]);
    expect((await k.decide(c.id, firstCase.id, c.moderator!, "dismiss")).status).toBe(200);
    const count = await k.http.get(`/api/communities/${c.id}/reports/count`, { cookie: c.moderator!.cookie });
    expect(count.body).toEqual({ open: REPORT_LIMITS.queuePage + 2 });
    const first = await k.queue(c.id, c.moderator!);
    expect(first.body.items).toHaveLength(REPORT_LIMITS.queuePage);
    const second = await k.http.get(`/api/communities/${c.id}/reports`, {
      cookie: c.moderator!.cookie,
      query: { cursor: first.body.next_cursor },
    });
    const all = [...first.body.items, ...second.body.items];
    expect(all).toHaveLength(posts.length);
    expect(new Set(all.map((x: { id: string }) => x.id)).size).toBe(posts.length);
    expect(all.at(-1).status).toBe("dismissed");
    expect(all.slice(0, -1).every((x: { status: string }) => x.status === "open")).toBe(true);
    expect(second.body.next_cursor).toBeNull();
  });

  it("never shows a moderator who wrote the item who reported it", async () => {
    const c = await k.community({ roles: ["moderator", "admin"] });
    const postId = await k.post(c.id, c.moderator!);
    const reporter = await k.join(c.id);
    await k.report(reporter, { target: "post", target_id: postId });
    const mine = await k.queue(c.id, c.moderator!);
    expect(mine.body.items[0].reports).toEqual([]);
    expect(JSON.stringify(mine.body)).not.toContain(reporter.id);
    expect(await k.notices(c.moderator!, "report_new")).toHaveLength(0);
    const theirs = await k.queue(c.id, c.admin!);
    expect(theirs.body.items[0].reports[0].reporter.id).toBe(reporter.id);
  });
});
