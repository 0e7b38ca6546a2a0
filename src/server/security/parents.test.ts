/**
 * A7: replies, likes and votes on a parent that is deleted, hidden (pending approval) or locked
 * (an ended poll) are refused, and a reply never lands on another post's comment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { databaseFingerprint, ok, type User } from "./world";

let t: TestApp;
let h: ReturnType<typeof api>;
let owner: User;
let member: User;
/** A member who is not the author of the pending post. */
let reader: User;
let communityId: string;
beforeAll(async () => {
  t = await createTestApp();
  h = api(t.app);
  [owner, member, reader] = await Promise.all([signedInUser(t), signedInUser(t), signedInUser(t)]);
  communityId = ok(
    await h.post("/api/communities", { name: `Parents ${Date.now().toString(36)}` }, { cookie: owner.cookie }),
    201,
  ).body.id;
  for (const u of [member, reader]) ok(await h.post(`/api/communities/${communityId}/join`, {}, { cookie: u.cookie }));
});
afterAll(() => t.close());

const post = async (body: Record<string, unknown>, who = owner) =>
  ok(await h.post(`/api/communities/${communityId}/posts`, body, { cookie: who.cookie }), 201).body as { id: string };
const comment = async (postId: string, content = "c", who = owner) =>
  ok(await h.post(`/api/posts/${postId}/comments`, { content }, { cookie: who.cookie }), 201).body as { id: string };

describe("A7: actions on a deleted, hidden or locked parent", () => {
  it("are refused, and change nothing", async () => {
    const deleted = await post({ content: "to delete" });
    const deletedComment = await comment(deleted.id);
    const other = await post({ content: "other" });
    const removedComment = await comment(other.id, "removed");
    const third = await post({ content: "third" });
    const thirdComment = await comment(third.id);
    expect((await h.delete(`/api/comments/${removedComment.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await h.delete(`/api/posts/${deleted.id}`, { cookie: owner.cookie })).status).toBe(204);
    const poll = await post({ type: "poll", content: "Ended", poll: { options: ["a", "b"], duration_hours: 1 } });
    await t.database.pool.query(
      `UPDATE posts SET poll_data = jsonb_set(poll_data, '{expires_at}', to_jsonb((now() - interval '1 minute')::text)) WHERE id = $1`,
      [poll.id],
    );
    ok(await h.patch(`/api/communities/${communityId}`, { moderation_enabled: true }, { cookie: owner.cookie }));
    const pending = await post({ content: "waiting" }, member);

    const before = await databaseFingerprint(t);
    const attempts: [string, () => Promise<{ status: number }>][] = [
      [
        "comment on a deleted post",
        () => h.post(`/api/posts/${deleted.id}/comments`, { content: "x" }, { cookie: member.cookie }),
      ],
      ["like a deleted post", () => h.post(`/api/posts/${deleted.id}/like`, {}, { cookie: member.cookie })],
      ["save a deleted post", () => h.post(`/api/posts/${deleted.id}/save`, {}, { cookie: member.cookie })],
      ["share a deleted post", () => h.post(`/api/posts/${deleted.id}/share`, {}, { cookie: member.cookie })],
      [
        "like a comment of a deleted post",
        () => h.post(`/api/comments/${deletedComment.id}/like`, {}, { cookie: member.cookie }),
      ],
      [
        "edit a comment of a deleted post",
        () => h.patch(`/api/comments/${deletedComment.id}`, { content: "x" }, { cookie: owner.cookie }),
      ],
      [
        "reply to a deleted comment",
        () =>
          h.post(
            `/api/posts/${other.id}/comments`,
            { content: "x", parent_id: removedComment.id },
            { cookie: member.cookie },
          ),
      ],
      [
        "like a deleted comment",
        () => h.post(`/api/comments/${removedComment.id}/like`, {}, { cookie: member.cookie }),
      ],
      [
        "reply to another post's comment",
        () =>
          h.post(
            `/api/posts/${other.id}/comments`,
            { content: "x", parent_id: thirdComment.id },
            { cookie: member.cookie },
          ),
      ],
      [
        "vote on an ended poll",
        () => h.post(`/api/posts/${poll.id}/vote`, { option_index: 0 }, { cookie: member.cookie }),
      ],
      [
        "comment on someone's pending post",
        () => h.post(`/api/posts/${pending.id}/comments`, { content: "x" }, { cookie: reader.cookie }),
      ],
      ["like someone's pending post", () => h.post(`/api/posts/${pending.id}/like`, {}, { cookie: reader.cookie })],
    ];
    const accepted: string[] = [];
    for (const [label, run] of attempts) {
      const res = await run();
      if (res.status < 400 || res.status >= 500) accepted.push(`${label}: ${res.status}`);
    }
    expect(accepted).toEqual([]);
    expect(await databaseFingerprint(t)).toEqual(before);
  });
});
