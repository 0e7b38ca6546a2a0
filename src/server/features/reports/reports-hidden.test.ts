import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_MESSAGES } from "#shared/reports";
import { createTestApp, type TestApp } from "#server/test/harness";
import { reportsKit, type User } from "./reports.test-helpers";

/*
 * Hidden pending review (issue 22): once reports hide a post or comment, everyone but its author
 * and the moderators reads it as if it did not exist — the feed, the post page (anonymous ones too),
 * comments, saved posts, notifications — while its author sees it flagged. Dismissing brings it back.
 */

let t: TestApp;
let k: ReturnType<typeof reportsKit>;
beforeAll(async () => {
  t = await createTestApp();
  k = reportsKit(t);
});
afterAll(() => t.close());

const feedIds = async (communityId: string, u?: User) =>
  (await k.http.get(`/api/communities/${communityId}/posts`, u ? { cookie: u.cookie } : {})).body.items.map(
    (p: { id: string; hidden: boolean }) => [p.id, p.hidden],
  ) as [string, boolean][];

/** A community (threshold 1) where `author` wrote a post that `reader` saved and commented on. */
async function setting() {
  const c = await k.community({ roles: ["moderator", "member"] });
  await k.http.put(`/api/communities/${c.id}/reports/settings`, { hide_threshold: 1 }, { cookie: c.owner.cookie });
  const author = await k.join(c.id);
  const reader = c.member!;
  const postId = await k.post(c.id, author, "the reported words");
  const other = await k.post(c.id, c.owner, "an ordinary post");
  return { c, author, reader, postId, other };
}

describe("a hidden post", () => {
  it("leaves the feed, the post page and saved posts of everyone but its author and moderators", async () => {
    const { c, author, reader, postId, other } = await setting();
    expect((await k.http.post(`/api/posts/${postId}/save`, {}, { cookie: reader.cookie })).status).toBe(200);
    // The anonymous page is made (and cached) before the post is hidden.
    expect((await k.http.get(`/api/posts/${postId}`)).status).toBe(200);
    expect((await k.report(reader, { target: "post", target_id: postId })).status).toBe(201);

    expect(await feedIds(c.id, reader)).toEqual([[other, false]]);
    expect(await feedIds(c.id)).toEqual([[other, false]]);
    expect(await feedIds(c.id, c.moderator!)).toEqual([[other, false]]);
    expect(await feedIds(c.id, author)).toEqual([
      [postId, true],
      [other, false],
    ]);

    const missing = await k.http.get(`/api/posts/00000000-0000-4000-8000-000000000000`, { cookie: reader.cookie });
    const asReader = await k.http.get(`/api/posts/${postId}`, { cookie: reader.cookie });
    expect(asReader.status).toBe(404);
    expect(asReader.body).toEqual(missing.body);
    expect((await k.http.get(`/api/posts/${postId}`)).status).toBe(404);
    const asAuthor = await k.http.get(`/api/posts/${postId}`, { cookie: author.cookie });
    expect(asAuthor.status).toBe(200);
    expect(asAuthor.body.post.hidden).toBe(true);
    expect((await k.http.get(`/api/posts/${postId}`, { cookie: c.moderator!.cookie })).body.post.hidden).toBe(true);
    expect((await k.http.get(`/api/posts/${postId}/comments`, { cookie: reader.cookie })).status).toBe(404);

    const saved = await k.http.get("/api/me/saved", { cookie: reader.cookie });
    expect(saved.body.items).toEqual([]);

    // Nobody takes part in it meanwhile; its author is told why.
    expect((await k.http.post(`/api/posts/${postId}/like`, {}, { cookie: reader.cookie })).status).toBe(404);
    const like = await k.http.post(`/api/posts/${postId}/like`, {}, { cookie: author.cookie });
    expect(like.status).toBe(409);
    expect(like.body.error.message).toBe(REPORT_MESSAGES.hiddenPendingReview);

    // Dismissed: back for everyone.
    const kase = await k.caseOf(postId);
    expect((await k.decide(c.id, kase.id, c.moderator!, "dismiss")).status).toBe(200);
    expect(await feedIds(c.id, reader)).toEqual([
      [other, false],
      [postId, false],
    ]);
    expect((await k.http.get(`/api/posts/${postId}`)).status).toBe(200);
    expect((await k.http.get("/api/me/saved", { cookie: reader.cookie })).body.items).toHaveLength(1);
    const back = await k.q(
      `SELECT 1 FROM realtime_events WHERE channel = $1 AND payload->>'type' = 'post_created' AND payload->>'post_id' = $2`,
      [`community:${c.id}`, postId],
    );
    // One when it was written, one when it came back.
    expect(back).toHaveLength(2);
  });

  it("takes its notifications from others while hidden, never from its author", async () => {
    const { c, author, reader, postId } = await setting();
    const commentId = await k.comment(postId, reader, "first!");
    const replier = await k.join(c.id);
    expect(
      (
        await k.http.post(
          `/api/posts/${postId}/comments`,
          { content: "reply", parent_id: commentId },
          { cookie: replier.cookie },
        )
      ).status,
    ).toBe(201);
    const replies = async (u: User) =>
      (await k.http.get("/api/notifications", { cookie: u.cookie })).body.items.filter(
        (n: { type: string }) => n.type === "post_reply",
      ).length;
    expect(await replies(reader)).toBe(1);
    expect(await replies(author)).toBe(2);
    await k.report(reader, { target: "post", target_id: postId });
    expect(await replies(reader)).toBe(0);
    expect(await replies(author)).toBe(2);
    const hidden = (await k.http.get("/api/notifications", { cookie: author.cookie })).body.items.find(
      (n: { type: string }) => n.type === "content_hidden",
    );
    expect(hidden.href).toBe(`/community/${c.id}#post-${postId}`);
    expect(hidden.actor).toBeNull();
    expect(JSON.stringify(hidden)).not.toContain(reader.username);
  });
});

describe("a hidden comment", () => {
  it("is gone for others (a bare placeholder when it has replies) and flagged for its author", async () => {
    const { c, author, reader, other } = await setting();
    const lone = await k.comment(other, author, "lone words");
    const parent = await k.comment(other, author, "parent words");
    expect(
      (
        await k.http.post(
          `/api/posts/${other}/comments`,
          { content: "a reply", parent_id: parent },
          { cookie: reader.cookie },
        )
      ).status,
    ).toBe(201);
    await k.report(reader, { target: "comment", target_id: lone });
    await k.report(reader, { target: "comment", target_id: parent });

    const asReader = (await k.http.get(`/api/posts/${other}/comments`, { cookie: reader.cookie })).body;
    expect(asReader.map((x: { id: string }) => x.id)).not.toContain(lone);
    const placeholder = asReader.find((x: { id: string }) => x.id === parent);
    expect(placeholder).toMatchObject({ content: "", author: null, deleted: true, hidden: false });
    expect(JSON.stringify(asReader)).not.toContain("words");
    const anonymous = (await k.http.get(`/api/posts/${other}/comments`)).body;
    expect(JSON.stringify(anonymous)).not.toContain("words");

    const asAuthor = (await k.http.get(`/api/posts/${other}/comments`, { cookie: author.cookie })).body;
    expect(asAuthor.filter((x: { hidden: boolean }) => x.hidden).map((x: { content: string }) => x.content)).toEqual([
      "lone words",
      "parent words",
    ]);
    // Others cannot like it; the author still can edit it.
    expect((await k.http.post(`/api/comments/${lone}/like`, {}, { cookie: reader.cookie })).status).toBe(404);

    // Removed by a moderator: gone for its author too, who is told the reason.
    const kase = await k.caseOf(lone);
    expect((await k.decide(c.id, kase.id, c.moderator!, "remove", "Rule 4")).status).toBe(200);
    const after = (await k.http.get(`/api/posts/${other}/comments`, { cookie: author.cookie })).body;
    expect(after.map((x: { id: string }) => x.id)).not.toContain(lone);
    expect((await k.notices(author, "content_removed"))[0].title).toContain("Rule 4");
  });
});
