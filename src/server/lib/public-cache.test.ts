import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "../app";
import { connectDatabase, type Database } from "../db/client";
import { api, createTestApp, signedInUser, type TestApp } from "../test/harness";

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

    // Signed-in readers see counters fresh; anonymous pages within the time to live.
    await http.post(`/api/posts/${first.id}/like`, {}, { cookie: reader.cookie });
    const mine = (await other.get(`/api/communities/${c.id}/posts`, { cookie: reader.cookie })).body.items.find(
      (p: { id: string }) => p.id === first.id,
    );
    expect(mine).toMatchObject({ likes_count: 1, liked: true });
    await until(
      async () =>
        (await other.get(`/api/communities/${c.id}/posts`)).body.items.find((p: { id: string }) => p.id === first.id)
          .likes_count === 1,
    );
  });
});
