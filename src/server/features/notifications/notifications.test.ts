import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATION_LIMITS } from "#shared/notifications";
import { api, createTestApp, mailTo, signedInUser, type TestApp } from "#server/test/harness";
import { connectSse, type SseClient } from "#server/test/sse";

let t: TestApp;
let http: ReturnType<typeof api>;
let base: string;
const streams: SseClient[] = [];
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type Item = {
  id: string;
  type: string;
  title: string;
  body: string;
  community_id: string | null;
  post_id: string | null;
  is_read: boolean;
  href: string;
  actor: { username: string } | null;
};

const user = (name?: string) => signedInUser(t, name ? { name } : {});

async function community(owner: User, opts: { visibility?: string; moderation?: boolean } = {}) {
  const c = (await http.post("/api/communities", { name: `Bell ${Date.now().toString(36)}` }, { cookie: owner.cookie }))
    .body as { id: string; slug: string; invite_code?: string };
  const patch: Record<string, unknown> = {};
  if (opts.visibility) patch.visibility = opts.visibility;
  if (opts.moderation) patch.moderation_enabled = true;
  if (Object.keys(patch).length) {
    expect((await http.patch(`/api/communities/${c.id}`, patch, { cookie: owner.cookie })).status).toBe(200);
  }
  return c;
}
const join = async (c: { id: string }, u: User) =>
  expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie })).status).toBe(200);
const post = async (c: { id: string }, u: User, content = "Hello everyone, this is my post") => {
  const res = await http.post(`/api/communities/${c.id}/posts`, { content }, { cookie: u.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};
const like = async (p: { id: string }, u: User) =>
  expect((await http.post(`/api/posts/${p.id}/like`, {}, { cookie: u.cookie })).status).toBe(200);
const comment = async (p: { id: string }, u: User, content: string, parentId?: string) => {
  const res = await http.post(`/api/posts/${p.id}/comments`, { content, parent_id: parentId }, { cookie: u.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};
const list = async (u: User, query = "") => {
  const res = await http.get(`/api/notifications${query}`, { cookie: u.cookie });
  expect(res.status).toBe(200);
  return res.body as { items: Item[]; next_cursor: string | null; unread_count: number };
};
const items = async (u: User) => (await list(u)).items;
const rows = async (userId: string) =>
  (await t.database.pool.query(`SELECT * FROM notifications WHERE user_id = $1 ORDER BY created_at, id`, [userId]))
    .rows;
const settings = (u: User, body: Record<string, unknown>) =>
  http.patch("/api/me/notification-settings", body, { cookie: u.cookie });

describe("events", () => {
  it("a like notifies the post's author once, however often it is toggled, and never the liker of their own post", async () => {
    const owner = await user("Olive Owner");
    const member = await user("Mia Member");
    const c = await community(owner);
    await join(c, member);
    const p = await post(c, owner, "Morning   sketches\n\nfrom the garden");
    await like(p, member);
    await like(p, member); // unlike
    await like(p, member); // like again
    await like(p, owner); // their own post
    const mine = (await items(owner)).filter((n) => n.type === "post_like");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      title: "Mia Member liked your post",
      body: "Morning sketches from the garden",
      community_id: c.id,
      post_id: p.id,
      is_read: false,
      href: `/community/${c.id}#post-${p.id}`,
      actor: { username: member.username },
    });
    expect((await items(member)).filter((n) => n.type === "post_like")).toHaveLength(0);
  });

  it("a comment notifies the post's author; a reply notifies the comment's author, and the post's author once", async () => {
    const author = await user("Ada Author");
    const commenter = await user("Cal Commenter");
    const third = await user("Tess Third");
    const c = await community(author);
    await join(c, commenter);
    await join(c, third);
    const p = await post(c, author);
    const first = await comment(p, commenter, "Lovely   work!");
    await comment(p, author, "Thank you", first.id); // the author replies: only the commenter hears
    await comment(p, third, "Agreed", first.id); // a third person: commenter (reply) and author (comment)
    await comment(p, author, "My own comment"); // self: nothing

    const toAuthor = (await items(author)).filter((n) => n.type === "post_reply");
    expect(toAuthor.map((n) => n.title).sort()).toEqual([
      "Cal Commenter commented on your post",
      "Tess Third commented on your post",
    ]);
    expect(toAuthor.find((n) => n.title.startsWith("Cal"))?.body).toBe("Lovely work!");
    const toCommenter = (await items(commenter)).filter((n) => n.type === "post_reply");
    expect(toCommenter.map((n) => n.title).sort()).toEqual([
      "Ada Author replied to your comment",
      "Tess Third replied to your comment",
    ]);
    expect(toCommenter.every((n) => n.post_id === p.id)).toBe(true);
    expect((await items(third)).filter((n) => n.type === "post_reply")).toHaveLength(0);
  });

  it("a join notifies the community's owners and admins, by link or by invite, and not the one who joined", async () => {
    const owner = await user("Owen Owner");
    const admin = await user("Ann Admin");
    const plain = await user();
    const c = await community(owner);
    await join(c, admin);
    await http.patch(`/api/communities/${c.id}/members/${admin.id}`, { role: "admin" }, { cookie: owner.cookie });
    await join(c, plain);
    const newcomer = await user("Nia Newcomer");
    await join(c, newcomer);
    const invited = await user("Ivo Invited");
    const code = (await t.database.pool.query(`SELECT invite_code FROM communities WHERE id = $1`, [c.id])).rows[0]
      .invite_code as string;
    expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: invited.cookie })).status).toBe(200);

    const joins = async (u: User) => (await items(u)).filter((n) => n.type === "community_join").map((n) => n.title);
    expect(await joins(owner)).toEqual(
      expect.arrayContaining([
        "Ivo Invited joined through an invite",
        "Nia Newcomer joined your community",
        "Ann Admin joined your community",
      ]),
    );
    // The admin became one after joining, so they hear of those who came later.
    const toAdmin = await joins(admin);
    expect(toAdmin).toHaveLength(3);
    expect(toAdmin.slice(0, 2)).toEqual(["Ivo Invited joined through an invite", "Nia Newcomer joined your community"]);
    expect(await joins(plain)).toEqual([]);
    expect(await joins(newcomer)).toEqual([]);
    expect((await items(owner)).find((n) => n.type === "community_join")?.href).toBe(`/community/${c.id}`);
  });

  it("approval and a moderator's warning notify the author", async () => {
    const owner = await user("Mo Derator");
    const member = await user();
    const c = await community(owner, { moderation: true });
    await join(c, member);
    const p = await post(c, member, "Please let me in");
    expect((await items(member)).filter((n) => n.type === "post_approved")).toHaveLength(0);
    expect((await http.post(`/api/posts/${p.id}/review`, { approve: true }, { cookie: owner.cookie })).status).toBe(
      200,
    );
    expect(
      (await http.post(`/api/posts/${p.id}/warn`, { reason: "Mind the rules" }, { cookie: owner.cookie })).status,
    ).toBe(200);
    const got = await items(member);
    expect(got.find((n) => n.type === "post_approved")).toMatchObject({
      title: "Your post was approved",
      post_id: p.id,
    });
    expect(got.find((n) => n.type === "other")).toMatchObject({
      title: "A moderator warned you about a post",
      body: "Mind the rules",
    });
    // The owner's own post needs no approval and tells no one.
    await post(c, owner, "Owner post");
    expect((await items(owner)).filter((n) => n.type === "post_approved")).toHaveLength(0);
  });
});

describe("settings", () => {
  it("are respected: all off, in-app off (email only), and a community's switch per type", async () => {
    const author = await user();
    const fan = await user("Fan");
    const c = await community(author);
    await settings(author, { global_enabled: false });
    await join(c, fan);
    await like(await post(c, author), fan);
    expect(await rows(author.id)).toHaveLength(0);

    // In-app off but email on: kept for the digest, never shown in the bell.
    await settings(author, { global_enabled: true, in_app_enabled: false });
    await like(await post(c, author), fan);
    expect(await rows(author.id)).toMatchObject([{ type: "post_like", in_app: false }]);
    expect(await list(author)).toMatchObject({ items: [], unread_count: 0 });

    await settings(author, { email_enabled: false });
    await like(await post(c, author), fan);
    expect(await rows(author.id)).toHaveLength(1);

    // Posts switched off in this community: likes are silent, comments still arrive.
    await settings(author, {
      in_app_enabled: true,
      email_enabled: true,
      community_settings: { [c.id]: { posts: false } },
    });
    const p = await post(c, author);
    await like(p, fan);
    await comment(p, fan, "Nice");
    expect((await items(author)).map((n) => n.type)).toEqual(["post_reply"]);
    await settings(author, { community_settings: { [c.id]: { comments: false } } });
    await comment(p, fan, "Nice again");
    expect((await items(author)).map((n) => n.type)).toEqual(["post_reply"]);
  });
});

describe("reading", () => {
  it("counts unread, marks one read (never below zero) and all read, pages with filters", async () => {
    const author = await user();
    const c = await community(author);
    const fans: User[] = [];
    for (let i = 0; i < 12; i++) {
      const fan = await user(`Fan ${i}`);
      await join(c, fan);
      fans.push(fan);
    }
    const p = await post(c, author);
    for (const fan of fans) await like(p, fan);

    const first = await list(author, "?limit=10");
    // 12 joins and 12 likes.
    expect(first.unread_count).toBe(24);
    expect(first.items).toHaveLength(10);
    expect(first.items[0].title).toBe("Fan 11 liked your post");
    expect(first.next_cursor).not.toBeNull();
    const rest = await list(author, `?limit=20&cursor=${first.next_cursor}`);
    expect(rest.items).toHaveLength(14);
    expect(rest.next_cursor).toBeNull();
    expect(new Set([...first.items, ...rest.items].map((n) => n.id)).size).toBe(24);

    const target = first.items[0].id;
    const read = await http.post(`/api/notifications/${target}/read`, {}, { cookie: author.cookie });
    expect(read.body).toEqual({ unread_count: 23 });
    expect((await http.post(`/api/notifications/${target}/read`, {}, { cookie: author.cookie })).body).toEqual({
      unread_count: 23,
    });
    const unread = await list(author, "?filter=unread&limit=50");
    expect(unread.items).toHaveLength(23);
    expect(unread.items.some((n) => n.id === target)).toBe(false);
    expect((await http.get("/api/notifications/unread-count", { cookie: author.cookie })).body).toEqual({
      unread_count: 23,
    });

    // Someone else's notification, or one that does not exist, is not found.
    expect((await http.post(`/api/notifications/${target}/read`, {}, { cookie: fans[0].cookie })).status).toBe(404);
    expect((await http.post(`/api/notifications/nope/read`, {}, { cookie: author.cookie })).status).toBe(404);
    expect((await list(author)).items.find((n) => n.id === target)?.is_read).toBe(true);

    expect((await http.post("/api/notifications/read-all", {}, { cookie: author.cookie })).body).toEqual({
      unread_count: 0,
      updated: 23,
    });
    expect((await http.post(`/api/notifications/${target}/read`, {}, { cookie: author.cookie })).body).toEqual({
      unread_count: 0,
    });
    expect((await list(author, "?filter=unread")).items).toHaveLength(0);
  });

  it("refuses bad input and anonymous callers", async () => {
    const u = await user();
    expect((await http.get("/api/notifications")).status).toBe(401);
    expect((await http.get("/api/notifications/unread-count")).status).toBe(401);
    expect((await http.post("/api/notifications/read-all", {})).status).toBe(401);
    for (const q of ["?limit=0", "?limit=51", "?filter=starred", "?cursor=bm90IGEgY3Vyc29y"]) {
      expect((await http.get(`/api/notifications${q}`, { cookie: u.cookie })).status, q).toBe(400);
    }
  });

  it("hides a private community's notifications from someone who lost access, and makes no new ones", async () => {
    const owner = await user();
    const member = await user();
    const c = await community(owner, { visibility: "private" });
    const code = (await t.database.pool.query(`SELECT invite_code FROM communities WHERE id = $1`, [c.id])).rows[0]
      .invite_code as string;
    await http.post(`/api/invites/${code}/accept`, {}, { cookie: member.cookie });
    const p = await post(c, member, "Secret garden plans");
    const mine = await comment(p, member, "First!");
    await like(p, owner);
    expect(await list(member)).toMatchObject({ unread_count: 1, items: [{ type: "post_like" }] });
    const id = (await items(member))[0].id;
    const stream = await connectSse(`${base}/api/realtime/notifications`, { cookie: member.cookie });
    streams.push(stream);
    await stream.next((f) => f.event === "ready");

    expect((await http.post(`/api/communities/${c.id}/leave`, {}, { cookie: member.cookie })).status).toBe(200);
    expect(await list(member)).toMatchObject({ unread_count: 0, items: [] });
    expect((await http.post(`/api/notifications/${id}/read`, {}, { cookie: member.cookie })).status).toBe(404);
    // A reply to their old comment tells them nothing, live or later.
    await comment(p, owner, "Reply after you left", mine.id);
    expect(await rows(member.id)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(stream.frames.filter((f) => f.event === "notification")).toHaveLength(0);
  });

  it("hides notifications about a deleted post", async () => {
    const owner = await user();
    const fan = await user();
    const c = await community(owner);
    await join(c, fan);
    const p = await post(c, owner);
    await like(p, fan);
    expect((await items(owner)).some((n) => n.post_id === p.id)).toBe(true);
    expect((await http.delete(`/api/posts/${p.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await items(owner)).some((n) => n.post_id === p.id)).toBe(false);
  });
});

describe("realtime", () => {
  it("reaches every open stream of the recipient at once, only theirs, and replays what a reconnect missed", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    const tabA = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    const tabB = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    const fanTab = await connectSse(`${base}/api/realtime/notifications`, { cookie: fan.cookie });
    streams.push(tabA, tabB, fanTab);
    for (const s of [tabA, tabB, fanTab]) await s.next((f) => f.event === "ready");

    const p1 = await post(c, author, "One");
    const sent = Date.now();
    await like(p1, fan);
    const id1 = (await items(author))[0].id;
    // The 1 s bound is asserted across two processes (two-processes.test.ts); here the load of a
    // parallel test run must not make it flaky.
    const [a, b] = await Promise.all([tabA, tabB].map((s) => s.next((f) => f.event === "notification", { ms: 5000 })));
    expect(a.data).toEqual({ type: "notification", id: id1 });
    expect(b.data).toEqual({ type: "notification", id: id1 });
    expect(a.at - sent).toBeLessThan(5000);
    expect(fanTab.frames.filter((f) => f.event === "notification")).toHaveLength(0);

    // Tab A goes away; two more arrive; it comes back with Last-Event-ID and gets exactly those two.
    tabA.close();
    const p2 = await post(c, author, "Two");
    const p3 = await post(c, author, "Three");
    await like(p2, fan);
    await like(p3, fan);
    await tabB.next((f) => f.event === "notification" && f.id !== a.id, { from: 0 });
    await new Promise((r) => setTimeout(r, 200));
    const back = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie, lastEventId: a.id! });
    streams.push(back);
    const newest = (await items(author)).slice(0, 2).map((n) => n.id);
    await back.next((f) => f.event === "notification" && f.data.id === newest[0], { ms: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    const replayed = back.frames.filter((f) => f.event === "notification");
    expect(replayed.map((f) => f.data.id)).toEqual([...newest].reverse());
    await tabB.next((f) => f.event === "notification" && f.data.id === newest[0], { ms: 5000 });
    expect(tabB.frames.filter((f) => f.event === "notification").map((f) => f.id)).toEqual([
      a.id,
      ...replayed.map((f) => f.id),
    ]);
  });

  it("tells the viewer's other tabs when notifications were marked read", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    await like(await post(c, author), fan);
    const other = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    streams.push(other);
    await other.next((f) => f.event === "ready");
    const [n] = await items(author);
    await http.post(`/api/notifications/${n.id}/read`, {}, { cookie: author.cookie });
    await other.next((f) => f.event === "read", { ms: 5000 });
    // Mark all (the join is still unread) says so too; then with nothing unread, neither says anything.
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await http.post(`/api/notifications/${n.id}/read`, {}, { cookie: author.cookie });
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await new Promise((r) => setTimeout(r, 300));
    expect(other.frames.filter((f) => f.event === "read")).toHaveLength(2);
    await like(await post(c, author), fan);
    await other.next((f) => f.event === "notification");
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await other.next((f) => f.event === "read", { from: other.frames.length - 1, ms: 5000 });
  });

  it("ends the stream of a session that signed out, at the next event", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    const stream = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    streams.push(stream);
    await stream.next((f) => f.event === "ready");
    const p = await post(c, author);
    // The fan's join notified the author just before the stream opened; its NOTIFY may reach the
    // stream after it did, while the session was still alive. What counts is nothing after sign-out.
    const notifications = () => stream.frames.filter((f) => f.event === "notification").length;
    expect((await http.post("/api/auth/sign-out", {}, { cookie: author.cookie })).status).toBe(200);
    const atSignOut = notifications();
    await like(p, fan);
    for (let i = 0; i < 100 && !stream.ended; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stream.ended).toBe(true);
    expect(notifications()).toBe(atSignOut);
  });

  it("is for signed-in users only", async () => {
    const res = await connectSse(`${base}/api/realtime/notifications`);
    expect(res.status).toBe(401);
  });
});

describe("email digests", () => {
  const jobsFor = async (userId: string) =>
    (
      await t.database.pool.query(
        `SELECT id, run_at, done_at FROM jobs WHERE queue = 'notifications.digest' AND payload->>'userId' = $1 ORDER BY id`,
        [userId],
      )
    ).rows as { id: number; run_at: Date; done_at: Date | null }[];
  const runDue = async (userId: string) => {
    await t.database.pool.query(
      `UPDATE jobs SET run_at = now() WHERE queue = 'notifications.digest' AND payload->>'userId' = $1 AND done_at IS NULL`,
      [userId],
    );
    await t.app.ctx.worker.runOnce();
  };

  it("mails unread notifications at most every 15 minutes, with an unsubscribe link that turns email off", async () => {
    const author = await user();
    const c = await community(author);
    const p = await post(c, author, "Digest me");
    const fans: User[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await user(`Reader ${i}`);
      await join(c, fan);
      fans.push(fan);
    }
    // 3 joins, one job, due after the gathering delay.
    const [job] = await jobsFor(author.id);
    expect(await jobsFor(author.id)).toHaveLength(1);
    const delay = (job.run_at.getTime() - Date.now()) / 1000;
    expect(delay).toBeGreaterThan(NOTIFICATION_LIMITS.digestDelaySeconds - 30);
    expect(delay).toBeLessThanOrEqual(NOTIFICATION_LIMITS.digestDelaySeconds);
    await like(p, fans[0]);
    expect(await jobsFor(author.id)).toHaveLength(1);
    // One read in the app before the digest goes: it is not mailed.
    const readOne = (await items(author)).find((n) => n.title === "Reader 2 joined your community")!;
    await http.post(`/api/notifications/${readOne.id}/read`, {}, { cookie: author.cookie });

    await runDue(author.id);
    const mails = await mailTo(t, author.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("You have 3 new notifications on Hearth");
    expect(mails[0].text).toContain("Reader 0 liked your post");
    expect(mails[0].text).toContain("Reader 1 joined your community");
    expect(mails[0].text).not.toContain("Reader 2 joined");
    expect(mails[0].text).toContain(`${t.config.publicUrl}/community/${c.id}#post-${p.id}`);
    const stored = (await t.database.pool.query(`SELECT headers FROM mail_messages WHERE "to" = $1`, [author.email]))
      .rows[0].headers as Record<string, string>;
    expect(stored["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // The next one waits for 15 minutes after the last digest.
    await like(await post(c, author, "Another"), fans[1]);
    const jobs = await jobsFor(author.id);
    expect(jobs).toHaveLength(2);
    const wait = (jobs[1].run_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(NOTIFICATION_LIMITS.digestIntervalSeconds - 30);
    expect(wait).toBeLessThanOrEqual(NOTIFICATION_LIMITS.digestIntervalSeconds);
    await runDue(author.id);
    const second = await mailTo(t, author.email);
    expect(second).toHaveLength(2);
    expect(second[0].subject).toBe("You have a new notification on Hearth");
    expect(second[0].text).not.toContain("Reader 0 liked");

    // The link in the mail turns email notifications off, without a session.
    const link = second[0].text.match(/Turn them off: (\S+)/)![1];
    expect(link).toMatch(/\/notifications\/unsubscribe\?token=/);
    const token = new URL(link).searchParams.get("token")!;
    expect((await http.post("/api/notifications/unsubscribe", { token: `${token}x` })).status).toBe(400);
    const off = await http.post("/api/notifications/unsubscribe", { token });
    expect(off.body).toEqual({ email_enabled: false });
    expect((await http.get("/api/me/notification-settings", { cookie: author.cookie })).body.email_enabled).toBe(false);
    await like(await post(c, author, "Quiet now"), fans[2]);
    expect(await jobsFor(author.id)).toHaveLength(2);
    expect((await items(author))[0].title).toBe("Reader 2 liked your post");
  });

  it("accepts a mail client's one-click unsubscribe (a cross-site form post) and nothing else without a token", async () => {
    const u = await user();
    const link = (await import("#server/lib/notifications")).unsubscribeToken(t.config.authSecret, u.id);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/notifications/unsubscribe?token=${encodeURIComponent(link)}`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example.com",
        "sec-fetch-site": "cross-site",
      },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect((await http.get("/api/me/notification-settings", { cookie: u.cookie })).body.email_enabled).toBe(false);
    const bad = await t.app.inject({ method: "POST", url: "/api/notifications/unsubscribe", payload: {} });
    expect(bad.statusCode).toBe(400);
    // Other writes from another site are still refused.
    const other = await t.app.inject({
      method: "POST",
      url: "/api/notifications/read-all",
      headers: { origin: "https://mail.example.com", cookie: u.cookie },
    });
    expect(other.statusCode).toBe(403);
  });

  it("escapes names and text in the digest's HTML", async () => {
    const author = await user();
    const fan = await user(`<img src=x onerror=alert(1)>`);
    const c = await community(author);
    await join(c, fan);
    const p = await post(c, author, "Plain");
    await comment(p, fan, `<script>alert("hi")</script>`);
    await runDue(author.id);
    const { html } = (await t.database.pool.query(`SELECT html FROM mail_messages WHERE "to" = $1`, [author.email]))
      .rows[0] as { html: string };
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; commented on your post");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/<script|<img/);
  });

  it("sends nothing when the user turned email off before the digest went out", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    expect(await jobsFor(author.id)).toHaveLength(1);
    await settings(author, { email_enabled: false });
    await runDue(author.id);
    expect(await mailTo(t, author.email)).toHaveLength(0);
    const [s] = (
      await t.database.pool.query(`SELECT digest_due_at FROM user_notification_settings WHERE user_id = $1`, [
        author.id,
      ])
    ).rows;
    expect(s.digest_due_at).toBeNull();
  });
});
