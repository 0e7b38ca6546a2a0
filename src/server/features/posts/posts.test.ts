import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import type { Viewer } from "#server/context";
import { pendingKey } from "#server/lib/feed-viewer-cache";
import { findPost } from "./posts.queries";
import {
  api,
  countStatements,
  createTestApp,
  heardAll,
  readUntil,
  signedInUser,
  upload,
  type TestApp,
} from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;

async function community(owner: User, opts: { visibility?: string; moderation?: boolean } = {}) {
  const c = (
    await http.post("/api/communities", { name: `Posts ${Date.now().toString(36)}` }, { cookie: owner.cookie })
  ).body as { id: string; slug: string };
  const patch: Record<string, unknown> = {};
  if (opts.visibility) patch.visibility = opts.visibility;
  if (opts.moderation) patch.moderation_enabled = true;
  if (Object.keys(patch).length) await http.patch(`/api/communities/${c.id}`, patch, { cookie: owner.cookie });
  return c;
}
const join = (c: { id: string }, u: User) => http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
const post = (c: { id: string }, u: User, body: Record<string, unknown>) =>
  http.post(`/api/communities/${c.id}/posts`, body, { cookie: u.cookie });
const countRows = async (table: string, postId: string) =>
  (await t.database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE post_id = $1`, [postId])).rows[0].n;
const postRow = async (id: string) => (await t.database.pool.query(`SELECT * FROM posts WHERE id = $1`, [id])).rows[0];

describe("creating posts", () => {
  it("validates each type with the spec's messages", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ content: "   " }, MSG.enterContent],
      [{ type: "text", content: "" }, MSG.enterContent],
      [{ type: "poll", content: "Which?", poll: { options: ["one", "  "] } }, MSG.pollNeedsTwoOptions],
      [{ type: "poll", content: "Which?" }, MSG.pollNeedsTwoOptions],
      [
        { type: "poll", content: "?", poll: { options: Array.from({ length: 11 }, (_, i) => `o${i}`) } },
        "A poll can have at most 10 options",
      ],
      [
        { type: "poll", content: "?", poll: { options: ["a", "b"], duration_hours: 5 } },
        "Choose one of the poll durations",
      ],
      [
        { type: "video", content: "", video_url: "https://example.com/page" },
        "Please add a YouTube, Vimeo or video file link, or upload a video",
      ],
      [{ type: "image", content: "" }, "Please add at least one image"],
      [{ type: "link", content: "no link here" }, "Please include a link starting with http:// or https://"],
      [
        { type: "image", content: "", images: [{ url: "https://evil.example/x.png" }] },
        "Images must be uploaded to Hearth",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(c, owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it("rejects mass-assigned fields", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    for (const extra of [
      { likes_count: 99 },
      { author_id: "x" },
      { is_approved: true },
      { community_id: c.id },
      { is_pinned: true },
    ]) {
      expect((await post(c, owner, { content: "hi", ...extra })).status).toBe(400);
    }
  });

  it("stores text, poll, video and image posts, content kept as typed (rendered as text by the web)", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const xss = `<img src=x onerror=alert(1)> <script>alert(2)</script>`;
    const text = await post(c, owner, { content: xss });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ type: "text", content: xss, likes_count: 0, is_approved: true, liked: false });

    const poll = await post(c, owner, { type: "poll", content: "Best day?", poll: { options: ["Sat", " ", "Sun"] } });
    expect(poll.body.poll).toMatchObject({ duration_hours: 24, total_votes: null, closed: false });
    expect(poll.body.poll.options.map((o: { text: string }) => o.text)).toEqual(["Sat", "Sun"]);
    const hours = (Date.parse(poll.body.poll.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);

    const video = await post(c, owner, { type: "video", content: "Watch", video_url: "https://youtu.be/dQw4w9WgXcQ" });
    expect(video.body.media_urls).toEqual([{ type: "video", url: "https://youtu.be/dQw4w9WgXcQ" }]);

    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#f97316" } })
      .png()
      .toBuffer();
    const img = await upload(t, `/api/communities/${c.id}/media`, owner.cookie, {
      name: "a.png",
      type: "image/png",
      data: png,
    });
    expect(img.status).toBe(200);
    const image = await post(c, owner, {
      type: "image",
      content: "",
      images: [{ url: img.body.url, medium: img.body.variants.medium, thumbnail: img.body.variants.thumbnail }],
    });
    expect(image.status, JSON.stringify(image.body)).toBe(201);
    // Another community's media cannot be attached.
    const other = await community(owner);
    expect((await post(other, owner, { type: "image", content: "", images: [{ url: img.body.url }] })).status).toBe(
      400,
    );

    const { post_count } = (await t.database.pool.query(`SELECT post_count FROM communities WHERE id = $1`, [c.id]))
      .rows[0];
    expect(post_count).toBe(4);
  });

  it("never fetches a preview of an internal address", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://[::ffff:127.0.0.1]/",
      "http://169.254.169.254/latest",
    ]) {
      const res = await post(c, owner, { content: `look ${url}` });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: "text", link_preview: null });
    }
    const stored = await t.database.pool.query(`SELECT count(*)::int AS n FROM link_previews`);
    expect(stored.rows[0].n).toBe(0);
  });

  it("lets only owners and admins post to admins only, and refuses guests", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const guest = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    await join(c, guest);
    await t.database.pool.query(`UPDATE community_members SET role = 'guest' WHERE user_id = $1`, [guest.id]);
    expect((await post(c, member, { content: "x", visibility: "admins" })).status).toBe(403);
    expect((await post(c, owner, { content: "x", visibility: "admins" })).status).toBe(201);
    expect((await post(c, guest, { content: "x" })).status).toBe(403);
  });
});

describe("likes, saves, shares", () => {
  it("keeps likes_count equal to the rows under 50 concurrent toggles by one user", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    const p = (await post(c, owner, { content: "Like me" })).body;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => http.post(`/api/posts/${p.id}/like`, {}, { cookie: u.cookie })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await countRows("post_likes", p.id);
    expect((await postRow(p.id)).likes_count).toBe(rows);
    expect(rows).toBeLessThanOrEqual(1);
    // A clean toggle pair.
    const first = await http.post(`/api/posts/${p.id}/like`, {}, { cookie: owner.cookie });
    expect(first.body).toEqual({ liked: true, likes_count: rows + 1 });
    const second = await http.post(`/api/posts/${p.id}/like`, {}, { cookie: owner.cookie });
    expect(second.body).toEqual({ liked: false, likes_count: rows });
  });

  it("toggles saves, lists saved posts, and counts shares", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const p = (await post(c, owner, { content: "Keep me" })).body;
    expect((await http.post(`/api/posts/${p.id}/save`, {}, { cookie: owner.cookie })).body).toEqual({ saved: true });
    const saved = await http.get("/api/me/saved", { cookie: owner.cookie });
    expect(saved.body.items).toMatchObject([{ id: p.id, saved: true, community: { id: c.id } }]);
    expect((await http.post(`/api/posts/${p.id}/save`, {}, { cookie: owner.cookie })).body).toEqual({ saved: false });
    expect((await http.get("/api/me/saved", { cookie: owner.cookie })).body.items).toEqual([]);
    expect((await http.post(`/api/posts/${p.id}/share`, {})).body).toEqual({ share_count: 1 });
    expect((await http.post(`/api/posts/${p.id}/like`, {})).status).toBe(401);
  });

  it("refuses liking a deleted post", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const p = (await post(c, owner, { content: "Bye" })).body;
    expect((await http.delete(`/api/posts/${p.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await http.post(`/api/posts/${p.id}/like`, {}, { cookie: owner.cookie })).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/posts`)).body.items).toEqual([]);
    expect(
      (await t.database.pool.query(`SELECT post_count FROM communities WHERE id = $1`, [c.id])).rows[0].post_count,
    ).toBe(0);
  });
});

describe("polls", () => {
  it("take one vote per user even under 50 concurrent votes, then show results", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await community(owner);
    const p = (await post(c, owner, { type: "poll", content: "?", poll: { options: ["a", "b", "c"] } })).body;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http.post(`/api/posts/${p.id}/vote`, { option_index: i % 3 }, { cookie: u.cookie }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.message === MSG.alreadyVoted)).toBe(true);
    expect(await countRows("poll_votes", p.id)).toBe(1);
    const view = (await http.get(`/api/posts/${p.id}`, { cookie: u.cookie })).body.post;
    expect(view.poll.total_votes).toBe(1);
    expect(view.poll.options.reduce((s: number, o: { votes: number }) => s + o.votes, 0)).toBe(1);
    expect(view.user_vote_index).not.toBeNull();
    // Someone who has not voted sees no counts yet.
    const before = (await http.get(`/api/posts/${p.id}`, { cookie: owner.cookie })).body.post;
    expect(before.poll.total_votes).toBeNull();
    expect((await http.post(`/api/posts/${p.id}/vote`, { option_index: 7 }, { cookie: owner.cookie })).status).toBe(
      400,
    );
  });

  it("lock after expiry and show results; duration 0 never expires", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const p = (await post(c, owner, { type: "poll", content: "?", poll: { options: ["a", "b"], duration_hours: 1 } }))
      .body;
    await t.database.pool.query(
      `UPDATE posts SET poll_data = jsonb_set(poll_data, '{expires_at}', to_jsonb((now() - interval '1 minute')::text)) WHERE id = $1`,
      [p.id],
    );
    const res = await http.post(`/api/posts/${p.id}/vote`, { option_index: 0 }, { cookie: owner.cookie });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(MSG.pollClosed);
    const view = (await http.get(`/api/posts/${p.id}`)).body.post;
    expect(view.poll).toMatchObject({ closed: true, total_votes: 0 });
    const forever = (
      await post(c, owner, { type: "poll", content: "?", poll: { options: ["a", "b"], duration_hours: 0 } })
    ).body;
    expect(forever.poll).toMatchObject({ expires_at: null, closed: false });
  });
});

describe("a signed-in reader's feed, kept per process (decision 0025)", () => {
  type Item = { id: string; liked: boolean; saved: boolean; likes_count: number; user_vote_index: number | null };
  const feed = async (c: { id: string }, u: User) =>
    (await http.get(`/api/communities/${c.id}/posts`, { cookie: u.cookie })).body.items as (Item & {
      poll: { total_votes: number | null } | null;
    })[];
  const itemOf = async (c: { id: string }, u: User, id: string) => (await feed(c, u)).find((x) => x.id === id)!;
  // Repeats `run` until it makes no statement: the announcements of the writes before it (heard a
  // moment later) and the counters this process changed (read afresh for the feed cache's two
  // seconds) are behind it then. Answers the statements of the last run.
  const settled = (run: () => Promise<unknown>) =>
    readUntil(
      () => countStatements(t, run),
      (n) => n === 0,
      10_000,
    );

  it("a repeated page makes no statement; the reader's own like, save and vote, and the like's count, show on the next one", async () => {
    const owner = await signedInUser(t);
    const reader = await signedInUser(t);
    const fan = await signedInUser(t);
    const c = await community(owner);
    await join(c, reader);
    await join(c, fan);
    const text = (await post(c, owner, { content: "Kept for readers" })).body;
    const poll = (await post(c, owner, { type: "poll", content: "Which?", poll: { options: ["a", "b"] } })).body;

    const first = await feed(c, reader);
    expect(first.map((x) => x.id)).toEqual([poll.id, text.id]);
    expect(await settled(() => feed(c, reader))).toBe(0);
    expect(await feed(c, reader)).toEqual(first);

    expect((await http.post(`/api/posts/${text.id}/like`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect(await itemOf(c, reader, text.id)).toMatchObject({ liked: true, saved: false, likes_count: 1 });
    expect((await http.post(`/api/posts/${text.id}/save`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect(await itemOf(c, reader, text.id)).toMatchObject({ liked: true, saved: true, likes_count: 1 });
    expect((await http.post(`/api/posts/${poll.id}/vote`, { option_index: 1 }, { cookie: reader.cookie })).status).toBe(
      200,
    );
    expect(await itemOf(c, reader, poll.id)).toMatchObject({ user_vote_index: 1, poll: { total_votes: 1 } });
    // Someone else's like in this process moves the count the reader sees at once; theirs stays theirs.
    expect((await http.post(`/api/posts/${text.id}/like`, {}, { cookie: fan.cookie })).status).toBe(200);
    expect(await itemOf(c, reader, text.id)).toMatchObject({ liked: true, likes_count: 2 });
    expect(await itemOf(c, fan, text.id)).toMatchObject({ liked: true, saved: false, likes_count: 2 });
    expect(await itemOf(c, fan, poll.id)).toMatchObject({ user_vote_index: null, poll: { total_votes: null } });
    expect((await http.post(`/api/posts/${text.id}/like`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect(await itemOf(c, reader, text.id)).toMatchObject({ liked: false, saved: true, likes_count: 1 });
    // Kept again: what the database says, with no statement.
    expect(await settled(() => feed(c, reader))).toBe(0);
    const kept = await feed(c, reader);
    expect(kept.find((x) => x.id === text.id)).toMatchObject({ liked: false, saved: true });
    expect(kept.find((x) => x.id === poll.id)).toMatchObject({ user_vote_index: 1 });
    // Each kept item (the shared one with the reader's part spliced in) is what the database says.
    for (const item of kept) {
      const truth = await findPost({ ctx: t.app.ctx, viewer: { id: reader.id } as Viewer, postId: item.id });
      expect(item).toEqual(JSON.parse(JSON.stringify(truth.post)));
    }
  });

  it("a like costs the page's readers one read of the post's counters for all, a new post each reader a read of their part of it alone", async () => {
    const owner = await signedInUser(t);
    const fan = await signedInUser(t);
    const readers = await Promise.all([signedInUser(t), signedInUser(t), signedInUser(t)]);
    const c = await community(owner);
    for (const u of [fan, ...readers]) await join(c, u);
    const older = (await post(c, owner, { content: "Older" })).body;
    await http.post(`/api/posts/${older.id}/save`, {}, { cookie: readers[0].cookie });
    for (const u of readers) expect(await settled(() => feed(c, u))).toBe(0);
    /** Every reader's page, and the statements they took. */
    const pages = async () => {
      const items: Item[][] = [];
      const statements = await countStatements(t, async () => {
        for (const u of readers) items.push(await feed(c, u));
      });
      return { items, statements };
    };
    const truthFor = async (u: User, id: string) =>
      JSON.parse(JSON.stringify((await findPost({ ctx: t.app.ctx, viewer: { id: u.id } as Viewer, postId: id })).post));

    // The fan's like, in this process; its announcement heard too (it touches the post again).
    const announced = new Promise<void>((resolve) =>
      t.app.ctx.listener.on("hearth_viewer", (p) => p === `${fan.id}.${older.id}` && resolve()),
    );
    expect((await http.post(`/api/posts/${older.id}/like`, {}, { cookie: fan.cookie })).status).toBe(200);
    await announced;
    const afterLike = await pages();
    expect(afterLike.statements).toBe(1);
    for (const [i, u] of readers.entries()) expect(afterLike.items[i][0]).toEqual(await truthFor(u, older.id));
    expect(afterLike.items[0][0]).toMatchObject({ likes_count: 1, liked: false, saved: true });

    // A new post: the page is read once for all, then each reader's part of the new post alone.
    const newer = (await post(c, owner, { content: "Newer" })).body;
    await heardAll(t);
    const afterPost = await pages();
    expect(afterPost.statements).toBe(1 + readers.length);
    for (const [i, u] of readers.entries()) {
      expect(afterPost.items[i].map((x) => x.id)).toEqual([newer.id, older.id]);
      for (const item of afterPost.items[i]) expect(item).toEqual(await truthFor(u, item.id));
    }
  });

  it("one post, signed in, answers what the database says, and only to whom may read it", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const outsider = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    await join(c, member);
    const open = (await post(c, owner, { type: "poll", content: "Which?", poll: { options: ["a", "b"] } })).body;
    const mine = (await post(c, member, { content: "Waiting for approval" })).body;
    const truth = async (u: User, id: string) =>
      JSON.parse(JSON.stringify(await findPost({ ctx: t.app.ctx, viewer: { id: u.id } as Viewer, postId: id })));
    const page = async (u: User, id: string) => {
      const res = await http.get(`/api/posts/${id}`, { cookie: u.cookie });
      return res.status === 200 ? res.body : res.status;
    };
    expect(await page(member, open.id)).toEqual(await truth(member, open.id));
    expect((await http.post(`/api/posts/${open.id}/like`, {}, { cookie: member.cookie })).status).toBe(200);
    expect((await http.post(`/api/posts/${open.id}/save`, {}, { cookie: member.cookie })).status).toBe(200);
    expect((await http.post(`/api/posts/${open.id}/vote`, { option_index: 0 }, { cookie: member.cookie })).status).toBe(
      200,
    );
    const liked = await page(member, open.id);
    expect(liked).toMatchObject({ post: { liked: true, saved: true, likes_count: 1, user_vote_index: 0 } });
    expect(liked).toEqual(await truth(member, open.id));
    expect(await page(owner, open.id)).toEqual(await truth(owner, open.id));
    expect(await page(outsider, open.id)).toEqual(await truth(outsider, open.id));
    // A pending post: its author and the owner, no one else.
    expect(await page(member, mine.id)).toEqual(await truth(member, mine.id));
    expect(await page(owner, mine.id)).toEqual(await truth(owner, mine.id));
    expect(await page(outsider, mine.id)).toBe(404);
    // Made private: an outsider is refused at once; a member still reads.
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect(await page(outsider, open.id)).toBe(404);
    expect(await page(member, open.id)).toEqual(await truth(member, open.id));
    // Deleted: gone for everyone.
    expect((await http.delete(`/api/posts/${open.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect(await page(member, open.id)).toBe(404);
    expect(await page(member, "00000000-0000-4000-8000-000000000000")).toBe(404);
    expect(await page(member, "not-a-post")).toBe(404);
    // Kept: a repeated page makes no statement.
    expect(await settled(() => page(owner, mine.id))).toBe(0);
  });

  it("the reader's own pending post shows on their first page as soon as it is made, and leaves it when rejected", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    await join(c, member);
    await post(c, owner, { content: "Approved already" });
    expect((await feed(c, member)).map((x) => x.id)).toHaveLength(1);
    expect(await settled(() => feed(c, member))).toBe(0);
    const p = (await post(c, member, { content: "Waiting" })).body;
    expect((await feed(c, member)).map((x) => x.id)).toContain(p.id);
    expect((await feed(c, owner)).map((x) => x.id)).not.toContain(p.id);
    expect((await http.post(`/api/posts/${p.id}/review`, { approve: false }, { cookie: owner.cookie })).status).toBe(
      200,
    );
    expect((await feed(c, member)).map((x) => x.id)).not.toContain(p.id);
  });

  it("keeps a reader's pending posts while others post, and drops them when one of the reader's own posts changes", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    await join(c, member);
    const waiting = (await post(c, member, { content: "Waiting" })).body;
    const kept = () => t.app.ctx.feedViewerCache.pending.get(pendingKey(c.id, member.id, undefined));
    const readFeed = async () => {
      await heardAll(t);
      return (await feed(c, member)).map((x) => x.id);
    };
    expect(await readFeed()).toContain(waiting.id);
    expect(kept()).toHaveLength(1);

    // The owner's post: on the member's next page, read without reading the member's pending posts again.
    const news = (await post(c, owner, { content: "News" })).body;
    await heardAll(t);
    expect(kept()).toHaveLength(1);
    expect(await readFeed()).toEqual(expect.arrayContaining([waiting.id, news.id]));

    // One of the member's own posts changed (here deleted by hand in SQL), announced by the database: dropped.
    await t.database.pool.query("UPDATE posts SET deleted_at = now() WHERE id = $1", [waiting.id]);
    await heardAll(t);
    expect(kept()).toBeUndefined();
    expect(await readFeed()).not.toContain(waiting.id);
  });
});

describe("the community's post_count (kept by the database at commit, migration 0039)", () => {
  const postCount = async (id: string) =>
    (await t.database.pool.query<{ n: number }>(`SELECT post_count AS n FROM communities WHERE id = $1`, [id])).rows[0]
      .n;
  const counted = async (id: string) =>
    (
      await t.database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM posts WHERE community_id = $1 AND is_approved AND deleted_at IS NULL`,
        [id],
      )
    ).rows[0].n;

  it("counts 30 members' posts made at once, approvals, rejections and deletes, and nothing rolled back", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    const members = await Promise.all(Array.from({ length: 30 }, () => signedInUser(t)));
    for (const m of members) await join(c, m);
    const mod = members[0];
    await http.patch(`/api/communities/${c.id}/members/${mod.id}`, { role: "moderator" }, { cookie: owner.cookie });
    // A moderator's posts go straight in; the others wait for approval and do not count yet.
    const made = await Promise.all(members.map((m, i) => post(c, m, { content: `At once ${i}` })));
    expect(made.map((r) => r.status)).toEqual(members.map(() => 201));
    expect(await postCount(c.id)).toBe(1);
    const pending = made.filter((r) => !r.body.is_approved).map((r) => r.body.id as string);
    expect(pending).toHaveLength(29);
    const review = (id: string, approve: boolean) =>
      http.post(`/api/posts/${id}/review`, { approve }, { cookie: owner.cookie });
    // 20 approved at once, 5 rejected; an approval answered twice counts once.
    const results = await Promise.all([
      ...pending.slice(0, 20).map((id) => review(id, true)),
      ...pending.slice(20, 25).map((id) => review(id, false)),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await review(pending[0], true)).status).toBe(409);
    expect(await postCount(c.id)).toBe(21);
    // The author deletes an approved post, then one still pending: only the first counted.
    expect((await http.delete(`/api/posts/${pending[0]}`, { cookie: members[1].cookie })).status).toBe(204);
    expect((await http.delete(`/api/posts/${pending[25]}`, { cookie: members[26].cookie })).status).toBe(204);
    expect(await postCount(c.id)).toBe(20);

    // Any path that changes the rows keeps it: a post inserted and rolled back, an approved post
    // removed outright, one soft-deleted and restored, one moved to another community.
    const other = await community(owner);
    const client = await t.database.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(`INSERT INTO posts (community_id, author_id, content) VALUES ($1, $2, 'gone')`, [
        c.id,
        owner.id,
      ]);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await postCount(c.id)).toBe(20);
    await t.database.pool.query(`DELETE FROM posts WHERE id = $1`, [pending[1]]);
    await t.database.pool.query(`UPDATE posts SET deleted_at = now() WHERE id = $1`, [pending[2]]);
    await t.database.pool.query(`UPDATE posts SET deleted_at = NULL WHERE id = $1`, [pending[2]]);
    await t.database.pool.query(`UPDATE posts SET community_id = $2 WHERE id = $1`, [pending[3], other.id]);
    expect(await postCount(c.id)).toBe(18);
    expect(await postCount(other.id)).toBe(1);
    expect(await postCount(c.id)).toBe(await counted(c.id));
    expect(await postCount(other.id)).toBe(await counted(other.id));
  });
});

describe("moderation", () => {
  it("holds members' posts for approval; the author sees theirs pending; approval notifies", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const mod = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    await join(c, member);
    await join(c, mod);
    await http.patch(`/api/communities/${c.id}/members/${mod.id}`, { role: "moderator" }, { cookie: owner.cookie });
    const p = (await post(c, member, { content: "Please approve" })).body;
    expect(p.is_approved).toBe(false);
    expect((await post(c, owner, { content: "Mine goes straight in" })).body.is_approved).toBe(true);

    const feedOf = async (u?: User) =>
      (await http.get(`/api/communities/${c.id}/posts`, { cookie: u?.cookie })).body.items.map(
        (x: { id: string }) => x.id,
      );
    expect(await feedOf(member)).toContain(p.id);
    expect(await feedOf(owner)).not.toContain(p.id);
    expect((await http.get(`/api/posts/${p.id}`)).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/posts/pending`, { cookie: member.cookie })).status).toBe(403);
    const pending = await http.get(`/api/communities/${c.id}/posts/pending`, { cookie: mod.cookie });
    expect(pending.body.map((x: { id: string }) => x.id)).toEqual([p.id]);

    expect((await http.post(`/api/posts/${p.id}/review`, { approve: true }, { cookie: mod.cookie })).status).toBe(200);
    expect(await feedOf()).toContain(p.id);
    const note = await t.database.pool.query(`SELECT type, data FROM notifications WHERE user_id = $1`, [member.id]);
    expect(note.rows).toEqual([{ type: "post_approved", data: { post_id: p.id } }]);

    const q = (await post(c, member, { content: "Spam" })).body;
    await http.post(`/api/posts/${q.id}/review`, { approve: false }, { cookie: mod.cookie });
    expect(await feedOf(member)).not.toContain(q.id);
  });

  it("pins (at most five), deletes any post and warns, for moderators only", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await post(c, member, { content: `p${i}` })).body.id);
    expect((await http.post(`/api/posts/${ids[0]}/pin`, { pinned: true }, { cookie: member.cookie })).status).toBe(403);
    for (const id of ids.slice(0, 5)) {
      expect((await http.post(`/api/posts/${id}/pin`, { pinned: true }, { cookie: owner.cookie })).status).toBe(200);
    }
    expect((await http.post(`/api/posts/${ids[5]}/pin`, { pinned: true }, { cookie: owner.cookie })).status).toBe(409);
    const feed = (await http.get(`/api/communities/${c.id}/posts`)).body.items;
    expect(feed.slice(0, 5).every((p: { is_pinned: boolean }) => p.is_pinned)).toBe(true);
    expect(feed[5].id).toBe(ids[5]);

    expect(
      (await http.post(`/api/posts/${ids[1]}/warn`, { reason: "Be nice" }, { cookie: member.cookie })).status,
    ).toBe(403);
    expect((await http.post(`/api/posts/${ids[1]}/warn`, { reason: "Be nice" }, { cookie: owner.cookie })).status).toBe(
      200,
    );
    const warnings = await t.database.pool.query(`SELECT reason FROM user_warnings WHERE user_id = $1`, [member.id]);
    expect(warnings.rows).toEqual([{ reason: "Be nice" }]);

    expect((await http.delete(`/api/posts/${ids[2]}`, { cookie: owner.cookie })).status).toBe(204);
    const other = await signedInUser(t);
    await join(c, other);
    expect((await http.delete(`/api/posts/${ids[3]}`, { cookie: other.cookie })).status).toBe(403);
  });

  it("lets authors edit their own posts only", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    const p = (await post(c, member, { content: "typo" })).body;
    const cat = (
      await http.put(
        `/api/communities/${c.id}/categories`,
        { categories: [{ name: "Misc", emoji: "" }] },
        { cookie: owner.cookie },
      )
    ).body[0];
    const moved = await http.patch(
      `/api/posts/${p.id}`,
      { category_id: cat.id, content: "typo" },
      { cookie: member.cookie },
    );
    expect(moved.body).toMatchObject({ category_id: cat.id, is_edited: false });
    expect((await http.patch(`/api/posts/${p.id}`, { content: "fixed" }, { cookie: owner.cookie })).status).toBe(403);
    const edited = await http.patch(`/api/posts/${p.id}`, { content: "fixed" }, { cookie: member.cookie });
    expect(edited.body).toMatchObject({ content: "fixed", is_edited: true });
    expect((await http.patch(`/api/posts/${p.id}`, { content: " " }, { cookie: member.cookie })).status).toBe(400);
    expect((await http.patch(`/api/posts/${p.id}`, { likes_count: 5 }, { cookie: member.cookie })).status).toBe(400);
  });
});

describe("live updates", () => {
  it("announce created, changed and removed posts on the community's channel, pending ones only once approved", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner, { moderation: true });
    await join(c, member);
    const events = async () =>
      (
        await t.database.pool.query(`SELECT payload FROM realtime_events WHERE channel = $1 ORDER BY id`, [
          `community:${c.id}`,
        ])
      ).rows.map((r) => `${r.payload.type}:${r.payload.post_id}`);
    const p = (await post(c, owner, { content: "Live" })).body;
    const pending = (await post(c, member, { content: "Waiting" })).body;
    expect(await events()).toEqual([`post_created:${p.id}`]);
    await http.post(`/api/posts/${p.id}/pin`, { pinned: true }, { cookie: owner.cookie });
    await http.post(`/api/posts/${pending.id}/review`, { approve: true }, { cookie: owner.cookie });
    await http.delete(`/api/posts/${p.id}`, { cookie: owner.cookie });
    expect(await events()).toEqual([
      `post_created:${p.id}`,
      `post_updated:${p.id}`,
      `post_created:${pending.id}`,
      `post_deleted:${p.id}`,
    ]);
  });
});

describe("comments", () => {
  it("take comments and one level of replies, keep comments_count exact, and let moderators delete any", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await join(c, member);
    const p = (await post(c, owner, { content: "Discuss" })).body;
    const top = await http.post(`/api/posts/${p.id}/comments`, { content: "First!" }, { cookie: member.cookie });
    expect(top.status).toBe(201);
    const reply = await http.post(
      `/api/posts/${p.id}/comments`,
      { content: "Reply", parent_id: top.body.id },
      { cookie: owner.cookie },
    );
    expect(reply.status).toBe(201);
    const nested = await http.post(
      `/api/posts/${p.id}/comments`,
      { content: "Too deep", parent_id: reply.body.id },
      { cookie: member.cookie },
    );
    expect(nested.status).toBe(400);
    expect((await http.post(`/api/posts/${p.id}/comments`, { content: "  " }, { cookie: member.cookie })).status).toBe(
      400,
    );
    expect((await postRow(p.id)).comments_count).toBe(2);

    const list = (await http.get(`/api/posts/${p.id}/comments`)).body;
    expect(list.map((x: { content: string; parent_id: string | null }) => [x.content, x.parent_id])).toEqual([
      ["First!", null],
      ["Reply", top.body.id],
    ]);
    expect(
      (await http.patch(`/api/comments/${top.body.id}`, { content: "Edited" }, { cookie: owner.cookie })).status,
    ).toBe(403);
    expect(
      (await http.patch(`/api/comments/${top.body.id}`, { content: "Edited" }, { cookie: member.cookie })).body,
    ).toMatchObject({
      content: "Edited",
      is_edited: true,
    });
    expect((await http.post(`/api/comments/${top.body.id}/like`, {}, { cookie: owner.cookie })).body).toEqual({
      liked: true,
      likes_count: 1,
    });
    expect((await http.delete(`/api/comments/${top.body.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await postRow(p.id)).comments_count).toBe(1);
    // The deleted comment stays as a placeholder for its reply.
    const after = (await http.get(`/api/posts/${p.id}/comments`)).body;
    expect(after[0]).toMatchObject({ id: top.body.id, deleted: true, content: "", author: null });
  });
});

describe("post visibility (SPEC §6), written out by hand", () => {
  const ACTORS = ["anonymous", "nonmember", "guest", "member", "moderator", "admin", "owner"] as const;
  // 200: sees the post; 404: as if it did not exist.
  //                                  anon nonmem guest member mod admin owner
  const EXPECTED: Record<string, Record<string, number[]>> = {
    public: {
      public: [200, 200, 200, 200, 200, 200, 200],
      members: [404, 404, 200, 200, 200, 200, 200],
      admins: [404, 404, 404, 404, 404, 200, 200],
    },
    private: {
      public: [404, 404, 200, 200, 200, 200, 200],
      members: [404, 404, 200, 200, 200, 200, 200],
      admins: [404, 404, 404, 404, 404, 200, 200],
    },
  };

  it("applies to the post, its comments, likes and the feed alike", async () => {
    const users = Object.fromEntries(
      await Promise.all(ACTORS.slice(1).map(async (a) => [a, await signedInUser(t)] as const)),
    ) as Record<Exclude<(typeof ACTORS)[number], "anonymous">, User>;
    for (const cv of ["public", "private"] as const) {
      const c = await community(users.owner, { visibility: cv === "private" ? "private" : undefined });
      for (const [who, role] of [
        ["guest", "guest"],
        ["member", "member"],
        ["moderator", "moderator"],
        ["admin", "admin"],
      ] as const) {
        await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
          c.id,
          users[who].id,
          role,
        ]);
      }
      for (const pv of ["public", "members", "admins"] as const) {
        const p = (await post(c, users.owner, { content: `${cv}/${pv}`, visibility: pv })).body;
        const actual: number[] = [];
        for (const actor of ACTORS) {
          const cookie = actor === "anonymous" ? undefined : users[actor].cookie;
          const one = (await http.get(`/api/posts/${p.id}`, { cookie })).status;
          const comments = (await http.get(`/api/posts/${p.id}/comments`, { cookie })).status;
          const feed = await http.get(`/api/communities/${c.id}/posts`, { cookie });
          const inFeed = feed.status === 200 && feed.body.items.some((x: { id: string }) => x.id === p.id);
          expect(comments, `${actor} comments ${cv}/${pv}`).toBe(one);
          expect(inFeed, `${actor} feed ${cv}/${pv}`).toBe(one === 200);
          actual.push(one);
        }
        expect(actual, `${cv} community, ${pv} post`).toEqual(EXPECTED[cv][pv]);
      }
    }
  });
});
