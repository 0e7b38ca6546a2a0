import { describe, expect, it } from "vitest";
import { connectSse } from "#server/test/sse";
import {
  base,
  comment,
  community,
  http,
  items,
  join,
  like,
  list,
  post,
  rows,
  settings,
  streams,
  t,
  user,
  useNotificationsApp,
  type User,
} from "./notifications.test-helpers";

useNotificationsApp();

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
