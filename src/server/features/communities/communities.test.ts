import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;

async function create(owner: User, name: string) {
  const res = await http.post("/api/communities", { name }, { cookie: owner.cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; slug: string };
}

describe("creating a community", () => {
  it("refuses signed-out users with the spec's message", async () => {
    const res = await http.post("/api/communities", { name: "Nope" });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(MSG.signInToCreate);
  });

  it.each([[""], ["   "], [undefined]])(
    "refuses a blank name %j with 'Please enter a community name'",
    async (name) => {
      const owner = await signedInUser(t);
      const res = await http.post("/api/communities", name === undefined ? {} : { name }, { cookie: owner.cookie });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(MSG.communityNameRequired);
    },
  );

  it("refuses names over 30 characters and accepts exactly 30", async () => {
    const owner = await signedInUser(t);
    expect((await http.post("/api/communities", { name: "x".repeat(31) }, { cookie: owner.cookie })).status).toBe(400);
    expect((await http.post("/api/communities", { name: "y".repeat(30) }, { cookie: owner.cookie })).status).toBe(201);
  });

  it("makes the creator the owner and the only member", async () => {
    const owner = await signedInUser(t);
    const c = await create(owner, "Pottery Circle");
    const view = await http.get(`/api/communities/${c.slug}`, { cookie: owner.cookie });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      id: c.id,
      name: "Pottery Circle",
      member_count: 1,
      admin_count: 1,
      online_count: 1,
      visibility: "public",
      type: "free",
      onboarding_completed: false,
      onboarding_tasks_completed: [],
      viewer: { role: "owner", signed_in: true },
      creator: { username: owner.username },
    });
    expect(view.body.viewer.permissions).toContain("delete_community");
    expect(view.body.invite_code).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("derives slugs per SPEC §5 and numbers collisions with slug or custom slug", async () => {
    const owner = await signedInUser(t);
    const base = `Café & Code ${Date.now()}!!`;
    const expected = base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "");
    expect((await create(owner, base)).slug).toBe(expected);
    // Another name with the same slug (the same name is refused as a look-alike: security/names.test.ts).
    expect((await create(owner, base.replace("!!", "??"))).slug).toBe(`${expected}-1`);
    // A custom slug in use counts as taken too.
    await t.database.pool.query(`UPDATE communities SET custom_slug = $1 WHERE slug = $2`, [
      `${expected}-2`,
      `${expected}-1`,
    ]);
    expect((await create(owner, base.replace("!!", "**"))).slug).toBe(`${expected}-3`);
    expect((await create(owner, "!!!")).slug).toMatch(/^community(-\d+)?$/);
  });

  it("gives distinct slugs to concurrent creations of names with the same slug", async () => {
    const owner = await signedInUser(t);
    const name = `Race ${Date.now()}`;
    const results = await Promise.all(
      ["", "!", "?", ".", "*", "#"].map((end) =>
        http.post("/api/communities", { name: `${name}${end}` }, { cookie: owner.cookie }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(6);
  });

  it("ignores mass-assigned fields", async () => {
    const owner = await signedInUser(t);
    const res = await http.post(
      "/api/communities",
      { name: "Sneaky", member_count: 9999, created_by: "someone" },
      { cookie: owner.cookie },
    );
    expect(res.status).toBe(400);
  });
});

describe("the directory", () => {
  it("lists public communities by member count with keyset paging, category and keyword filters", async () => {
    const owner = await signedInUser(t);
    const tag = `zq${Date.now().toString(36)}`;
    const made: { id: string; slug: string }[] = [];
    for (let i = 0; i < 5; i++) made.push(await create(owner, `${tag} group ${i}`));
    // Give them distinct sizes and a category; one private one must never appear.
    for (const [i, c] of made.entries()) {
      await t.database.pool.query(
        `UPDATE communities SET member_count = $1, category = $2, description = $3 WHERE id = $4`,
        [100 - i * 10, i % 2 ? "arts" : "health", `about ${tag} things`, c.id],
      );
    }
    await t.database.pool.query(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [made[4].id]);

    const first = await http.get(`/api/communities?q=${tag}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual([made[0].id, made[1].id]);
    expect(first.body.next_cursor).toBeTruthy();
    const second = await http.get(`/api/communities?q=${tag}&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual([made[2].id, made[3].id]);
    expect(second.body.next_cursor).toBeNull();

    const arts = await http.get(`/api/communities?q=${tag}&category=arts`);
    expect(arts.body.items.map((c: { id: string }) => c.id)).toEqual([made[1].id, made[3].id]);
    expect(arts.body.items[0]).toMatchObject({ member_count: 90, category: "arts", type: "free", price: 0 });

    // Keyword matches the description too, and LIKE wildcards are literal.
    expect((await http.get(`/api/communities?q=about%20${tag}`)).body.items).toHaveLength(4);
    expect((await http.get(`/api/communities?q=%25%25`)).body.items).toEqual([]);
  });

  it("pages through communities of equal size in id order, without repeats or gaps", async () => {
    const owner = await signedInUser(t);
    const tag = `tie${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(owner, `${tag} ${i}`)).id);
    await t.database.pool.query(`UPDATE communities SET member_count = 7 WHERE id = ANY($1::uuid[])`, [
      ids.slice(0, 4),
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await http.get(`/api/communities?q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...res.body.items.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids.slice(0, 4).sort(), ids[4]]);
  });

  it("answers bad filters with 400, not 500", async () => {
    expect((await http.get("/api/communities?category=cooking")).status).toBe(400);
    expect((await http.get("/api/communities?cursor=garbage")).status).toBe(400);
    expect((await http.get("/api/communities?limit=1000")).status).toBe(400);
  });
});

describe("the community page", () => {
  it("answers 404 for unknown ids and slugs, and the private gate for non-members", async () => {
    expect((await http.get("/api/communities/no-such-community")).status).toBe(404);
    expect((await http.get("/api/communities/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const owner = await signedInUser(t);
    const outsider = await signedInUser(t);
    const c = await create(owner, "Quiet Room");
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    for (const cookie of [undefined, outsider.cookie]) {
      const res = await http.get(`/api/communities/${c.slug}`, { cookie });
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: "PRIVATE_COMMUNITY", message: MSG.privateCommunityBody });
      expect(JSON.stringify(res.body)).not.toContain("Quiet Room");
    }
    // Nor anything inside it.
    for (const path of ["categories", "posts", "members"]) {
      expect((await http.get(`/api/communities/${c.id}/${path}`, { cookie: outsider.cookie })).status).toBe(404);
    }
  });

  it("shows the invite code only to those who may invite", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await create(owner, "Codes");
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
    expect((await http.get(`/api/communities/${c.id}`, { cookie: member.cookie })).body.invite_code).toBeNull();
    expect((await http.get(`/api/communities/${c.id}`)).body.invite_code).toBeNull();
  });

  it("counts online members from real activity and admins from roles", async () => {
    const owner = await signedInUser(t);
    const c = await create(owner, "Figures");
    const others = await Promise.all([signedInUser(t), signedInUser(t), signedInUser(t)]);
    for (const u of others) await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
    await http.patch(`/api/communities/${c.id}/members/${others[0].id}`, { role: "admin" }, { cookie: owner.cookie });
    await t.database.pool.query(
      `UPDATE community_members SET last_active_at = now() - interval '1 hour' WHERE community_id = $1 AND user_id = $2`,
      [c.id, others[2].id],
    );
    const view = await http.get(`/api/communities/${c.id}`);
    expect(view.body).toMatchObject({ member_count: 4, admin_count: 2, online_count: 3 });
  });
});

describe("settings", () => {
  it("lets owner and admin edit, refuses others, and validates every field", async () => {
    const owner = await signedInUser(t);
    const admin = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await create(owner, "Settings Lab");
    for (const u of [admin, member]) await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
    await http.patch(`/api/communities/${c.id}/members/${admin.id}`, { role: "admin" }, { cookie: owner.cookie });

    const denied = await http.patch(`/api/communities/${c.id}`, { tagline: "x" }, { cookie: member.cookie });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(MSG.insufficientPermissions);

    const res = await http.patch(
      `/api/communities/${c.id}`,
      {
        tagline: "Make things",
        category: "arts",
        type: "paid",
        price: 19.5,
        show_map: false,
        rules: ["Be kind", "No spam"],
      },
      { cookie: admin.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      tagline: "Make things",
      category: "arts",
      type: "paid",
      price: 19.5,
      show_map: false,
      rules: ["Be kind", "No spam"],
    });

    const bad = [
      { description: "d".repeat(151) },
      { rules: Array.from({ length: 11 }, (_, i) => `rule ${i}`) },
      { price: -1 },
      { price: 1.234 },
      { type: "paid", price: 0 },
      { category: "cooking" },
      { visibility: "secret" },
      { name: " " },
      { role: "owner" },
      JSON.parse('{"__proto__": {"x": 1}}'),
    ];
    for (const body of bad) {
      const r = await http.patch(`/api/communities/${c.id}`, body, { cookie: owner.cookie });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    // Switching to free clears the price.
    const free = await http.patch(`/api/communities/${c.id}`, { type: "free" }, { cookie: owner.cookie });
    expect(free.body).toMatchObject({ type: "free", price: 0 });
  });

  it("replaces post categories in order, keeping ids, and refuses another community's ids", async () => {
    const owner = await signedInUser(t);
    const c = await create(owner, "Cats");
    const put = (categories: unknown[]) =>
      http.put(`/api/communities/${c.id}/categories`, { categories }, { cookie: owner.cookie });
    const first = await put([
      { name: "General", emoji: "💬" },
      { name: "Wins", emoji: "🏆" },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.map((x: { name: string }) => x.name)).toEqual(["General", "Wins"]);
    const [general, wins] = first.body as { id: string }[];
    const second = await put([
      { id: wins.id, name: "Big wins", emoji: "🏆" },
      { id: general.id, name: "General", emoji: "💬" },
      { name: "Help", emoji: "" },
    ]);
    expect(second.body.map((x: { id: string; name: string }) => [x.name, x.id === wins.id])).toEqual([
      ["Big wins", true],
      ["General", false],
      ["Help", false],
    ]);
    expect(
      (
        await put([
          { name: "A", emoji: "" },
          { name: "a", emoji: "" },
        ])
      ).status,
    ).toBe(400);
    const other = await create(owner, "Dogs");
    const foreign = (
      await http.put(
        `/api/communities/${other.id}/categories`,
        { categories: [{ name: "Theirs", emoji: "" }] },
        { cookie: owner.cookie },
      )
    ).body[0].id;
    expect((await put([{ id: foreign, name: "Stolen", emoji: "" }])).status).toBe(400);
  });

  it("uploads a sanitized SVG icon and a re-encoded cover, with the spec's messages", async () => {
    const owner = await signedInUser(t);
    const c = await create(owner, "Art House");
    const evil = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
        <script>alert(2)</script><foreignObject><div>x</div></foreignObject>
        <a xlink:href="javascript:alert(3)"><circle r="5"/></a><rect width="10" height="10" fill="red"/></svg>`,
    );
    const icon = await upload(t, `/api/communities/${c.id}/icon`, owner.cookie, {
      name: "icon.svg",
      type: "image/svg+xml",
      data: evil,
    });
    expect(icon.status, JSON.stringify(icon.body)).toBe(200);
    expect(icon.body.path).toMatch(new RegExp(`^community-assets/${c.id}/icon-[0-9a-f-]{36}\\.svg$`));
    const served = await t.app.inject({ method: "GET", url: icon.body.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.headers["content-security-policy"]).toContain("sandbox");
    expect(served.body).toContain("<rect");
    for (const bad of ["script", "onload", "foreignObject", "javascript:"]) expect(served.body).not.toContain(bad);

    const png = await sharp({ create: { width: 1084, height: 576, channels: 3, background: "#c2410c" } })
      .png()
      .toBuffer();
    const notSvg = await upload(t, `/api/communities/${c.id}/icon`, owner.cookie, {
      name: "icon.svg",
      type: "image/svg+xml",
      data: png,
    });
    expect(notSvg.status).toBe(400);
    expect(notSvg.body.error.message).toBe(MSG.iconMustBeSvg);

    const cover = await upload(t, `/api/communities/${c.id}/cover`, owner.cookie, {
      name: "cover.png",
      type: "image/png",
      data: png,
    });
    expect(cover.status, JSON.stringify(cover.body)).toBe(200);
    expect(cover.body.path).toMatch(new RegExp(`^community-assets/${c.id}/cover-[0-9a-f-]{36}\\.webp$`));
    const svgAsCover = await upload(t, `/api/communities/${c.id}/cover`, owner.cookie, {
      name: "cover.png",
      type: "image/png",
      data: evil,
    });
    expect(svgAsCover.status).toBe(400);
    expect(svgAsCover.body.error.message).toBe(MSG.coverMustBeImage);
    const big = await upload(t, `/api/communities/${c.id}/cover`, owner.cookie, {
      name: "big.png",
      type: "image/png",
      data: Buffer.alloc(10 * 1024 * 1024 + 10),
    });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe("File size must be less than 10MB");

    const view = await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie });
    expect(view.body.icon_url).toBe(icon.body.url);
    expect(view.body.cover_url).toBe(cover.body.url);
    expect(view.body.onboarding_tasks_completed).toContain("customization");
  });

  it("lets only the owner delete the community", async () => {
    const owner = await signedInUser(t);
    const admin = await signedInUser(t);
    const c = await create(owner, "Short Lived");
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: admin.cookie });
    await http.patch(`/api/communities/${c.id}/members/${admin.id}`, { role: "admin" }, { cookie: owner.cookie });
    expect((await http.delete(`/api/communities/${c.id}`, { cookie: admin.cookie })).status).toBe(403);
    expect((await http.delete(`/api/communities/${c.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await http.get(`/api/communities/${c.id}`)).status).toBe(404);
  });
});

describe("onboarding", () => {
  it("accumulates tasks by the spec's rules and completes with all four", async () => {
    const owner = await signedInUser(t);
    const c = await create(owner, "Onboard Me");
    const tasks = async () => (await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body;

    await http.patch(`/api/communities/${c.id}`, { description: "   " }, { cookie: owner.cookie });
    expect((await tasks()).onboarding_tasks_completed).toEqual([]);
    await http.patch(`/api/communities/${c.id}`, { description: "We make pots." }, { cookie: owner.cookie });
    expect((await tasks()).onboarding_tasks_completed).toEqual(["description"]);

    const post = await http.post(`/api/communities/${c.id}/posts`, { content: "Hello!" }, { cookie: owner.cookie });
    expect(post.status).toBe(201);
    await upload(t, `/api/communities/${c.id}/icon`, owner.cookie, {
      name: "i.svg",
      type: "image/svg+xml",
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>'),
    });
    const code = (await tasks()).invite_code;
    for (let i = 0; i < 2; i++) {
      const u = await signedInUser(t);
      expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie })).status).toBe(200);
    }
    let view = await tasks();
    expect(view.onboarding_tasks_completed.sort()).toEqual(["customization", "description", "first_post"]);
    expect(view.onboarding_completed).toBe(false);
    // A plain join does not count as an invite.
    const joiner = await signedInUser(t);
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: joiner.cookie });
    expect((await tasks()).onboarding_completed).toBe(false);
    const third = await signedInUser(t);
    await http.post(`/api/invites/${code}/accept`, {}, { cookie: third.cookie });
    view = await tasks();
    expect(view.onboarding_tasks_completed).toContain("invite");
    expect(view.onboarding_completed).toBe(true);
  });
});
