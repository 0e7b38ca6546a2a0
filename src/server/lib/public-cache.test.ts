import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { connectDatabase, type Database } from "#server/db/client";
import {
  api,
  countStatements,
  createTestApp,
  heardAll as heardAllBy,
  signedInUser,
  type TestApp,
} from "#server/test/harness";
import { FEED_CHANNEL, postPageKey, sharedPostKey } from "./public-cache";

let t: TestApp;
let second: { app: HearthApp; database: Database };
beforeAll(async () => {
  t = await createTestApp();
  // A second process on the same database.
  const database = connectDatabase(t.database.url, { max: 3 });
  const app = await buildApp({ config: t.config, database, logger: false, startWorker: false });
  await app.ready();
  second = { app, database };
});
afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

/** Every announcement committed so far heard by `app`. */
const heardAll = (app: HearthApp) => heardAllBy(t, app);

const until = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 3_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("not within 3 s");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("the public cache", () => {
  it("serves anonymous directory and community pages, and forgets them when a community changes, in every process", async () => {
    const http = api(t.app);
    const other = api(second.app);
    const owner = await signedInUser(t);
    const tag = `cache${Date.now().toString(36)}`;
    const c = (await http.post("/api/communities", { name: `${tag} one` }, { cookie: owner.cookie })).body;

    // Both processes cache the anonymous answers. The notification of the creation itself may
    // arrive after the first reads and empty the caches once, so read until the entries stay.
    for (const [h, app] of [
      [http, t.app],
      [other, second.app],
    ] as const) {
      await until(async () => {
        expect((await h.get(`/api/communities?q=${tag}`)).body.items).toHaveLength(1);
        expect((await h.get(`/api/communities/${c.slug}`)).body.name).toBe(`${tag} one`);
        return app.ctx.publicCache.size >= 2;
      });
    }

    // Going private: gone from the directory and gated, at once here and within moments there.
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect((await http.get(`/api/communities?q=${tag}`)).body.items).toEqual([]);
    expect((await http.get(`/api/communities/${c.slug}`)).status).toBe(403);
    await until(async () => (await other.get(`/api/communities?q=${tag}`)).body.items.length === 0);
    expect((await other.get(`/api/communities/${c.slug}`)).status).toBe(403);

    // A change by hand in SQL is heard too.
    await t.database.pool.query(`UPDATE communities SET visibility = 'public', name = $1 WHERE id = $2`, [
      `${tag} two`,
      c.id,
    ]);
    await until(async () => (await other.get(`/api/communities/${c.slug}`)).body?.name === `${tag} two`);
  });

  it("lets counters lag by at most its time to live, without a notification per join", async () => {
    const http = api(t.app);
    const owner = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Counting" }, { cookie: owner.cookie })).body;
    expect((await http.get(`/api/communities/${c.id}`)).body.member_count).toBe(1);
    const u = await signedInUser(t);
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
    await until(async () => (await http.get(`/api/communities/${c.id}`)).body.member_count === 2);
  });

  it("never serves a signed-in viewer from it", async () => {
    const http = api(t.app);
    const owner = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Personal" }, { cookie: owner.cookie })).body;
    expect((await http.get(`/api/communities/${c.id}`)).body.viewer.role).toBeNull();
    expect((await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body.viewer.role).toBe("owner");
  });

  it("serves feed pages from the feed cache, forgetting a community's pages when its posts change in any process", async () => {
    const http = api(t.app);
    const other = api(second.app);
    const owner = await signedInUser(t);
    const reader = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Feed cache" }, { cookie: owner.cookie })).body;
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: reader.cookie });
    const first = (await http.post(`/api/communities/${c.id}/posts`, { content: "one" }, { cookie: owner.cookie }))
      .body;
    const contents = async (h: typeof http, cookie?: string) =>
      (await h.get(`/api/communities/${c.id}/posts`, { cookie })).body.items.map((p: { content: string }) => p.content);
    expect(await contents(other)).toEqual(["one"]);
    expect(await contents(other, reader.cookie)).toEqual(["one"]);

    // Written through the first process: the second forgets its cached pages within moments.
    await http.post(`/api/communities/${c.id}/posts`, { content: "two" }, { cookie: owner.cookie });
    expect(await contents(http)).toEqual(["two", "one"]);
    await until(async () => (await contents(other)).length === 2);
    await until(async () => (await contents(other, reader.cookie)).length === 2);

    // A members-only post never lands in an anonymous page, cached or not.
    await http.post(
      `/api/communities/${c.id}/posts`,
      { content: "inner", visibility: "members" },
      { cookie: owner.cookie },
    );
    await until(async () => (await contents(other, reader.cookie)).includes("inner"));
    expect(await contents(other)).not.toContain("inner");

    // The reader sees their like and its count at once in the process that made it (decision 0025);
    // in another, once the database's announcement arrives, and counters within the time to live,
    // as anonymous pages do.
    await http.post(`/api/posts/${first.id}/like`, {}, { cookie: reader.cookie });
    const mineIn = async (app: typeof http) =>
      (await app.get(`/api/communities/${c.id}/posts`, { cookie: reader.cookie })).body.items.find(
        (p: { id: string }) => p.id === first.id,
      );
    expect(await mineIn(http)).toMatchObject({ likes_count: 1, liked: true });
    await until(async () => {
      const mine = await mineIn(other);
      return mine.liked === true && mine.likes_count === 1;
    });
    await until(
      async () =>
        (await other.get(`/api/communities/${c.id}/posts`)).body.items.find((p: { id: string }) => p.id === first.id)
          .likes_count === 1,
    );
  });

  it("serves a public post's anonymous page from the cache and shows every change to the next anonymous request", async () => {
    const http = api(t.app);
    const other = api(second.app);
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const name = `Post cache ${Date.now().toString(36)}`;
    const c = (await http.post("/api/communities", { name }, { cookie: owner.cookie })).body;
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
    const write = (body: Record<string, unknown>) =>
      http.post(`/api/communities/${c.id}/posts`, body, { cookie: owner.cookie }).then((r) => r.body.id as string);
    const id = await write({ content: "First words" });
    const poll = await write({ type: "poll", content: "Which?", poll: { options: ["A", "B"], duration_hours: 0 } });
    const inner = await write({ content: "Members only", visibility: "members" });
    const page = async (postId: string, h = http, cookie?: string) => {
      const res = await h.get(`/api/posts/${postId}`, { cookie });
      return res.status === 200 ? res.body : res.status;
    };

    // Read twice: the second answer comes from the cache (a counter changed behind its back in SQL,
    // which no trigger announces, does not show), byte for byte the first. The writes' own
    // notifications are heard first: one arriving between the reads would empty the cache.
    await heardAll(t.app);
    const first = await http.get(`/api/posts/${id}`);
    expect(first.body).toMatchObject({ post: { id, content: "First words", liked: false }, viewer_role: null });
    expect(first.body.community).toEqual({ id: c.id, slug: c.slug, name, icon_url: null });
    await t.database.pool.query("UPDATE posts SET share_count = 40 WHERE id = $1", [id]);
    const again = await http.get(`/api/posts/${id}`);
    expect(again.raw.body).toBe(first.raw.body);
    // The post's part is kept; the community's card is added from the public cache on each request.
    expect(t.app.ctx.feedCache.get(postPageKey(c.id, id))).toBe(JSON.stringify(first.body.post));

    // Each change shows to the very next anonymous request in this process.
    await http.patch(`/api/posts/${id}`, { content: "Edited words" }, { cookie: owner.cookie });
    expect(await page(id)).toMatchObject({ post: { content: "Edited words", is_edited: true, share_count: 40 } });
    await http.post(`/api/posts/${id}/like`, {}, { cookie: member.cookie });
    expect(await page(id)).toMatchObject({ post: { likes_count: 1, liked: false } });
    const comment = (await http.post(`/api/posts/${id}/comments`, { content: "Hi" }, { cookie: member.cookie })).body;
    expect(await page(id)).toMatchObject({ post: { comments_count: 1 } });
    await http.delete(`/api/comments/${comment.id}`, { cookie: member.cookie });
    expect(await page(id)).toMatchObject({ post: { comments_count: 0 } });
    await http.post(`/api/posts/${id}/share`, {});
    expect(await page(id)).toMatchObject({ post: { share_count: 41 } });
    expect(await page(poll)).toMatchObject({ post: { poll: { total_votes: null } } });
    await http.post(`/api/posts/${poll}/vote`, { option_index: 1 }, { cookie: member.cookie });
    expect(
      (await t.database.pool.query("SELECT poll_data->'total_votes' AS n FROM posts WHERE id = $1", [poll])).rows[0].n,
    ).toBe(1);
    expect(t.app.ctx.feedCache.get(postPageKey(c.id, poll))).toBeUndefined();

    // The other process hears of content changes from the database within moments.
    expect(await page(id, other)).toMatchObject({ post: { content: "Edited words" } });
    await http.patch(`/api/posts/${id}`, { content: "Third words" }, { cookie: owner.cookie });
    await until(async () => ((await page(id, other)) as { post: { content: string } }).post.content === "Third words");

    // Signed-in viewers never get the anonymous bytes; members-only posts are never cached.
    expect(await page(id, http, member.cookie)).toMatchObject({ post: { liked: true }, viewer_role: "member" });
    expect(await page(inner)).toBe(404);
    expect(await page(inner, http, member.cookie)).toMatchObject({ post: { id: inner } });
    expect(t.app.ctx.feedCache.get(postPageKey(c.id, inner))).toBeUndefined();

    // The community goes private with the page cached in both processes: the next anonymous
    // request is refused, here at once and in the other process within moments.
    for (const h of [http, other]) expect(await page(id, h)).toMatchObject({ post: { id } });
    expect(t.app.ctx.feedCache.get(postPageKey(c.id, id))).toBeDefined();
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect(await page(id)).toBe(404);
    await until(async () => (await page(id, other)) === 404);
    // Its posts are read by members only, and never kept for anyone else.
    const secret = await write({ content: "Private words" });
    for (const [h, app] of [
      [http, t.app],
      [other, second.app],
    ] as const) {
      expect(await page(secret, h, member.cookie)).toMatchObject({ post: { id: secret }, viewer_role: "member" });
      expect(await page(secret, h)).toBe(404);
      expect(app.ctx.feedCache.get(postPageKey(c.id, secret))).toBeUndefined();
    }
    expect(await page(id, http, member.cookie)).toMatchObject({ post: { id }, viewer_role: "member" });
    expect(await page(id)).toBe(404);

    // Deleted: gone for the next anonymous request.
    await http.patch(`/api/communities/${c.id}`, { visibility: "public" }, { cookie: owner.cookie });
    expect(await page(id)).toMatchObject({ post: { id } });
    await http.delete(`/api/posts/${id}`, { cookie: owner.cookie });
    expect(await page(id)).toBe(404);
  });

  it("drops the feed pages and the changed post's own pages when one post changes, keeping its other posts' pages, in every process", async () => {
    const http = api(t.app);
    const other = api(second.app);
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Kept posts" }, { cookie: owner.cookie })).body;
    const elsewhere = (await http.post("/api/communities", { name: "Kept posts too" }, { cookie: owner.cookie })).body;
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
    const write = (content: string, community = c.id) =>
      http
        .post(`/api/communities/${community}/posts`, { content }, { cookie: owner.cookie })
        .then((r) => r.body.id as string);
    const [kept, hidden, moved] = [await write("Kept"), await write("Hidden"), await write("Moved")];
    await write("Already there", elsewhere.id);
    const apps = [t.app, second.app];
    const contents = async (h: typeof http, community = c.id) =>
      (await h.get(`/api/communities/${community}/posts`)).body.items.map((p: { content: string }) => p.content);
    /** Both processes read the posts' anonymous pages, the member's page of `kept`, and both feeds. */
    const readAll = async (ids = [kept, hidden, moved]) => {
      for (const app of apps) await heardAll(app);
      for (const h of [http, other]) {
        for (const id of ids) expect((await h.get(`/api/posts/${id}`)).status).toBe(200);
        expect((await h.get(`/api/posts/${kept}`, { cookie: member.cookie })).status).toBe(200);
        await contents(h);
        await contents(h, elsewhere.id);
      }
    };
    const keptIn = (app: HearthApp, key: string) => app.ctx.feedCache.get(key) !== undefined;
    await readAll();
    for (const app of apps) {
      for (const id of [kept, hidden, moved]) expect(keptIn(app, postPageKey(c.id, id))).toBe(true);
      expect(keptIn(app, sharedPostKey(c.id, kept))).toBe(true);
    }

    // A new post: on the next feed page of each process, and no other post's page is read again.
    await write("Newest");
    for (const app of apps) {
      await heardAll(app);
      for (const id of [kept, hidden, moved]) expect(keptIn(app, postPageKey(c.id, id))).toBe(true);
      expect(keptIn(app, sharedPostKey(c.id, kept))).toBe(true);
    }
    for (const h of [http, other]) expect((await contents(h))[0]).toBe("Newest");

    // Hidden after reports, here by hand in SQL: every process hears it (the process that hid it
    // used to be the only one), drops that post's page and feed pages, and keeps the others.
    await readAll();
    await t.database.pool.query("UPDATE posts SET hidden_at = now() WHERE id = $1", [hidden]);
    for (const app of apps) {
      await heardAll(app);
      expect(keptIn(app, postPageKey(c.id, hidden))).toBe(false);
      expect(keptIn(app, postPageKey(c.id, kept))).toBe(true);
    }
    for (const h of [http, other]) {
      expect((await h.get(`/api/posts/${hidden}`)).status).toBe(404);
      expect(await contents(h)).not.toContain("Hidden");
    }

    // Moved to another community: both communities' feeds change in every process.
    for (const h of [http, other]) {
      expect(await contents(h, elsewhere.id)).toEqual(["Already there"]);
      expect(await contents(h)).toContain("Moved");
    }
    await t.database.pool.query("UPDATE posts SET community_id = $1 WHERE id = $2", [elsewhere.id, moved]);
    for (const app of apps) {
      await heardAll(app);
      expect(keptIn(app, postPageKey(c.id, moved))).toBe(false);
      expect(keptIn(app, postPageKey(c.id, kept))).toBe(true);
    }
    for (const h of [http, other]) {
      expect(await contents(h, elsewhere.id)).toEqual(["Already there", "Moved"]);
      expect(await contents(h)).not.toContain("Moved");
    }

    // The author's level changes (it shows on their posts' cards): every post's pages go.
    await readAll([kept]);
    const level = async () =>
      (
        await t.database.pool.query("SELECT level FROM member_points WHERE community_id = $1 AND user_id = $2", [
          c.id,
          owner.id,
        ])
      ).rows[0]?.level ?? 1;
    const before = await level();
    await t.database.pool.query("SELECT hearth_points_add($1, $2, 5000, 0, 0)", [c.id, owner.id]);
    expect(await level()).toBeGreaterThan(before);
    for (const app of apps) {
      await heardAll(app);
      expect(keptIn(app, postPageKey(c.id, kept))).toBe(false);
      expect(keptIn(app, sharedPostKey(c.id, kept))).toBe(false);
    }
    expect((await http.get(`/api/posts/${kept}`)).body.post.author.level).toBe(await level());

    // A change that names the community alone (its posts removed for good) drops all of it.
    await readAll([kept]);
    expect(keptIn(t.app, postPageKey(c.id, kept))).toBe(true);
    await t.database.pool.query("SELECT pg_notify($1, $2)", [FEED_CHANNEL, c.id]);
    for (const app of apps) {
      await heardAll(app);
      expect(keptIn(app, postPageKey(c.id, kept))).toBe(false);
      expect(keptIn(app, sharedPostKey(c.id, kept))).toBe(false);
    }
  });

  it("reads a post once for a spike of anonymous visitors it has not kept, cold or with only its page expired", async () => {
    const http = api(t.app);
    const owner = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Post spike" }, { cookie: owner.cookie })).body;
    const id = (await http.post(`/api/communities/${c.id}/posts`, { content: "Busy" }, { cookie: owner.cookie })).body
      .id as string;
    const statements = (run: () => Promise<void>) => countStatements(t, run);
    const visitors = (count: number) => async () => {
      const answers = await Promise.all(
        Array.from({ length: count }, () => t.app.inject({ method: "GET", url: `/api/posts/${id}` })),
      );
      expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    };
    const cold = () => {
      t.app.ctx.publicCache.clear();
      t.app.ctx.feedCache.clear();
    };
    const pageGone = () => t.app.ctx.feedCache.delete(postPageKey(c.id, id));
    // On a cold cache, then with the post's page gone but its community still known: what one
    // visitor alone costs, then fifty at once cost the same.
    for (const state of [cold, pageGone]) {
      state();
      const one = await statements(visitors(1));
      expect(one).toBeGreaterThan(0);
      state();
      expect(await statements(visitors(50))).toBe(one);
    }
    // Both kept: no statement at all.
    expect(await statements(visitors(50))).toBe(0);
  });

  it("computes a missing entry once for every caller that asks meanwhile, and lets go of it when the key is dropped", async () => {
    const cache = t.app.ctx.feedCache;
    let runs = 0;
    const release: (() => void)[] = [];
    const compute = (value: string) => () => {
      runs++;
      return new Promise<string>((resolve) => release.push(() => resolve(value)));
    };
    const waiting = Array.from({ length: 20 }, () => cache.getOrCompute("scope-a:page", compute("old")));
    expect(runs).toBe(1);
    // A change drops the key while it is computed: the next caller starts again, and only the
    // newer answer is kept.
    cache.clearScope("scope-a");
    const fresh = cache.getOrCompute("scope-a:page", compute("new"));
    expect(runs).toBe(2);
    release.forEach((r) => r());
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(["old"]));
    expect(await fresh).toBe("new");
    expect(cache.get("scope-a:page")).toBe("new");
    expect(await cache.getOrCompute("scope-a:page", compute("again"))).toBe("new");
    expect(runs).toBe(2);
  });

  it("keeps an entry for the time to live it was given, or else the cache's", async () => {
    const cache = t.app.ctx.feedCache;
    // Given 0 ms, an entry is expired when next read; the cache's own (2 s) keeps the other.
    expect(await cache.getOrCompute("scope-ttl:short", async () => "short", 0)).toBe("short");
    expect(await cache.getOrCompute("scope-ttl:kept", async () => "kept")).toBe("kept");
    expect(cache.get("scope-ttl:short")).toBeUndefined();
    expect(cache.get("scope-ttl:kept")).toBe("kept");
    cache.set("scope-ttl:long", "long", 60_000);
    expect(cache.get("scope-ttl:long")).toBe("long");
  });

  it("drops a scope's keys through its index, and a scope with a colon by a pass over the keys", () => {
    const cache = t.app.ctx.feedCache;
    cache.set("scope-i:one", 1);
    cache.set("scope-i:two", 2);
    cache.set("scope-ii:one", 3);
    cache.set("scope-i:deep:one", 4);
    cache.clearScope("scope-i:deep");
    expect([cache.get("scope-i:one"), cache.get("scope-i:deep:one")]).toEqual([1, undefined]);
    cache.clearScope("scope-i");
    expect([cache.get("scope-i:one"), cache.get("scope-i:two"), cache.get("scope-ii:one")]).toEqual([
      undefined,
      undefined,
      3,
    ]);
    // A key dropped on its own leaves its scope's index: set again, it is dropped with the scope.
    cache.delete("scope-ii:one");
    cache.set("scope-ii:one", 5);
    cache.clearScope("scope-ii");
    expect(cache.get("scope-ii:one")).toBeUndefined();
  });

  it("keeps a member's role and standing, dropped at once here and within moments in every process when they change", async () => {
    const http = api(t.app);
    const other = api(second.app);
    const [owner, member, fan] = await Promise.all([signedInUser(t), signedInUser(t), signedInUser(t)]);
    const c = (await http.post("/api/communities", { name: "Kept roles" }, { cookie: owner.cookie })).body;
    for (const u of [member, fan]) await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    const post = (await http.post(`/api/communities/${c.id}/posts`, { content: "mine" }, { cookie: member.cookie }))
      .body;
    const board = (h: typeof http) =>
      h.get(`/api/communities/${c.id}/leaderboard?period=all`, { cookie: member.cookie });
    const month = (h: typeof http) =>
      h.get(`/api/communities/${c.id}/calendar?from=2026-11-01T00%3A00%3A00.000Z&to=2026-12-01T00%3A00%3A00.000Z`, {
        cookie: member.cookie,
      });

    // Both processes read the member's standing once and keep it (no statement on the next read).
    for (const h of [http, other]) {
      expect((await board(h)).body.viewer_level.points).toBe(0);
      expect((await month(h)).status).toBe(200);
    }
    const scope = `${c.id}.${member.id}`;
    for (const app of [t.app, second.app]) {
      expect(app.ctx.memberCache.get(`${scope}:points`)).toBeDefined();
      expect(app.ctx.memberCache.get(`${scope}:role`)).toBe("member");
    }

    // A like moves the author's points: at once where it was made, within moments elsewhere.
    expect((await http.post(`/api/posts/${post.id}/like`, {}, { cookie: fan.cookie })).body.liked).toBe(true);
    expect((await board(http)).body.viewer_level.points).toBe(1);
    await until(async () => (await board(other)).body.viewer_level.points === 1);

    // A change made in SQL (as a payment's lapse is) is announced too.
    await t.database.pool.query(`UPDATE member_points SET like_points = 7 WHERE community_id = $1 AND user_id = $2`, [
      c.id,
      member.id,
    ]);
    for (const h of [http, other]) await until(async () => (await board(h)).body.viewer_level.points === 7);

    // Removed: the private community is gone for them at once here, within moments there.
    const removed = await http.delete(`/api/communities/${c.id}/members/${member.id}`, { cookie: owner.cookie });
    expect(removed.status).toBe(204);
    expect((await board(http)).status).toBe(404);
    expect((await month(http)).status).toBe(404);
    await until(async () => (await board(other)).status === 404 && (await month(other)).status === 404);

    // Back in by SQL: both processes see the membership again.
    await t.database.pool.query(
      `INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'member')`,
      [c.id, member.id],
    );
    for (const h of [http, other]) await until(async () => (await month(h)).status === 200);
  });
});
