import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { api, createTestApp, multipart, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

async function uploadAvatar(cookie: string, filename: string, type: string, data: Buffer) {
  const body = multipart(filename, type, data);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/me/avatar",
    headers: { cookie, origin: "http://localhost:3000", "content-type": body.contentType },
    payload: body.payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe("profile", () => {
  it("returns nulls when signed out and the profile when signed in", async () => {
    expect((await http.get("/api/me")).body).toEqual({ user: null, profile: null });
    const u = await signedInUser(t);
    const me = await http.get("/api/me", { cookie: u.cookie });
    expect(me.body.profile).toMatchObject({ username: u.username, timezone: "UTC", language: "en", headline: "" });
  });

  it("updates every editable field and ignores nothing silently", async () => {
    const u = await signedInUser(t);
    const update = {
      full_name: "Grace Hopper",
      headline: "Rear admiral",
      bio: "Wrote the first compiler.",
      location: "Arlington",
      timezone: "America/New_York",
      language: "fr",
      website_url: "https://example.org",
      twitter_url: "https://twitter.com/grace",
      facebook_url: "",
      instagram_url: "",
      linkedin_url: "https://linkedin.com/in/grace",
      email_public: true,
      allow_messages: false,
      show_in_directory: false,
    };
    const res = await http.patch("/api/me/profile", update, { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(update);
    const me = await http.get("/api/me", { cookie: u.cookie });
    expect(me.body.profile).toMatchObject(update);
    expect(me.body.user.name).toBe("Grace Hopper");
  });

  it("enforces the headline limit of 160, known timezones and languages, and http(s) URLs", async () => {
    const u = await signedInUser(t);
    expect((await http.patch("/api/me/profile", { headline: "x".repeat(160) }, { cookie: u.cookie })).status).toBe(200);
    expect((await http.patch("/api/me/profile", { headline: "x".repeat(161) }, { cookie: u.cookie })).status).toBe(400);
    expect((await http.patch("/api/me/profile", { timezone: "Mars/Olympus" }, { cookie: u.cookie })).status).toBe(400);
    expect((await http.patch("/api/me/profile", { language: "xx" }, { cookie: u.cookie })).status).toBe(400);
    expect(
      (await http.patch("/api/me/profile", { website_url: "javascript:alert(1)" }, { cookie: u.cookie })).status,
    ).toBe(400);
  });

  it("refuses fields that are not the user's to set (mass assignment)", async () => {
    const u = await signedInUser(t);
    for (const body of [{ user_id: "someone-else" }, { id: "x" }, { created_at: "2020-01-01" }]) {
      const res = await http.patch("/api/me/profile", body, { cookie: u.cookie });
      expect(res.status).toBe(400);
    }
    const proto = await t.app.inject({
      method: "PATCH",
      url: "/api/me/profile",
      headers: { cookie: u.cookie, origin: "http://localhost:3000", "content-type": "application/json" },
      payload: '{"bio":"ok","__proto__":{"polluted":true}}',
    });
    expect(proto.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("changes the username with the spec's rules and messages", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const taken = await http.patch("/api/me/profile", { username: a.username.toUpperCase() }, { cookie: b.cookie });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(MSG.usernameTaken);
    const bad = await http.patch("/api/me/profile", { username: "no" }, { cookie: b.cookie });
    expect(bad.body.error.message).toBe(MSG.usernameInvalid);
    const ok = await http.patch(
      "/api/me/profile",
      { username: "  Fresh_Name_" + Date.now().toString(36).slice(-4) },
      { cookie: b.cookie },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.username).toMatch(/^fresh_name_/);
  });

  it("checks username availability (own current name counts as available)", async () => {
    const a = await signedInUser(t);
    const check = (username: string, cookie?: string) =>
      http.get(`/api/profiles/username-available?username=${encodeURIComponent(username)}`, { cookie });
    expect((await check(a.username)).body).toEqual({ available: false, message: MSG.usernameTaken });
    expect((await check(a.username, a.cookie)).body.available).toBe(true);
    expect((await check("free_" + Date.now().toString(36))).body).toEqual({
      available: true,
      message: MSG.usernameAvailable,
    });
    const bad = await check("a b");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MSG.usernameInvalid);
  });

  it("refuses writes from anonymous callers", async () => {
    expect((await http.patch("/api/me/profile", { bio: "x" })).status).toBe(401);
    expect((await http.get("/api/me/notification-settings")).status).toBe(401);
  });

  it("shows a public profile without the email unless it is public", async () => {
    const u = await signedInUser(t);
    await http.patch("/api/me/profile", { headline: "Hello there" }, { cookie: u.cookie });
    const res = await http.get(`/api/profiles/${u.username}`);
    expect(res.body).toMatchObject({ username: u.username, headline: "Hello there", email: null });
    await http.patch("/api/me/profile", { email_public: true }, { cookie: u.cookie });
    expect((await http.get(`/api/profiles/${u.username}`)).body.email).toBe(u.email);
    expect((await http.get("/api/profiles/nobody_here_at_all")).status).toBe(404);
  });
});

describe("notification settings", () => {
  it("starts with the spec's defaults and saves changes", async () => {
    const u = await signedInUser(t);
    const res = await http.get("/api/me/notification-settings", { cookie: u.cookie });
    expect(res.body).toEqual({
      global_enabled: true,
      email_enabled: true,
      in_app_enabled: true,
      push_enabled: false,
      community_settings: {},
      communities: [],
    });
    const c = (await http.post("/api/communities", { name: "Flag Garden" }, { cookie: u.cookie })).body;
    const on = { posts: true, comments: true, announcements: true, events: true };
    expect((await http.get("/api/me/notification-settings", { cookie: u.cookie })).body.communities).toEqual([
      { id: c.id, slug: c.slug, name: "Flag Garden", icon_url: null, flags: on },
    ]);
    const upd = await http.patch(
      "/api/me/notification-settings",
      { email_enabled: false, community_settings: { [c.id]: { posts: false, events: false } } },
      { cookie: u.cookie },
    );
    expect(upd.body).toMatchObject({
      email_enabled: false,
      global_enabled: true,
      community_settings: { [c.id]: { posts: false, comments: true, announcements: true, events: false } },
      communities: [{ id: c.id, flags: { ...on, posts: false, events: false } }],
    });
    // One switch at a time keeps the others.
    const again = await http.patch(
      "/api/me/notification-settings",
      { community_settings: { [c.id]: { events: true } } },
      { cookie: u.cookie },
    );
    expect(again.body.communities[0].flags).toEqual({ ...on, posts: false });
    expect(
      (await http.patch("/api/me/notification-settings", { push_enabled: "yes" }, { cookie: u.cookie })).status,
    ).toBe(400);
  });

  it("keeps switches only for communities the user belongs to", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Not Yours" }, { cookie: owner.cookie })).body;
    for (const id of [c.id, "4b0a2f5e-8f1c-4d8a-9c55-1f0d6d7c0a11"]) {
      const res = await http.patch(
        "/api/me/notification-settings",
        { community_settings: { [id]: { posts: false } } },
        { cookie: other.cookie },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(MSG.notAMember);
    }
    expect((await http.get("/api/me/notification-settings", { cookie: other.cookie })).body.community_settings).toEqual(
      {},
    );
    const many = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`4b0a2f5e-8f1c-4d8a-9c55-${String(i).padStart(12, "0")}`, {}]),
    );
    expect(
      (await http.patch("/api/me/notification-settings", { community_settings: many }, { cookie: other.cookie }))
        .status,
    ).toBe(400);
  });
});

describe("avatar", () => {
  it("re-encodes an image into the spec's variants, serves them, and replaces the old files", async () => {
    const u = await signedInUser(t);
    const png = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#c2410c" } })
      .png()
      .toBuffer();
    const res = await uploadAvatar(u.cookie, "me.png", "image/png", png);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("image/webp");
    expect(res.body.path).toMatch(new RegExp(`^user-avatars/${u.id}/avatar-[0-9a-f-]{36}\\.webp$`));
    const sizes: Record<string, [number, number]> = {};
    for (const [name, url] of Object.entries(res.body.variants as Record<string, string>)) {
      const file = await t.app.inject({ method: "GET", url });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("image/webp");
      expect(file.headers["x-content-type-options"]).toBe("nosniff");
      const meta = await sharp(file.rawPayload).metadata();
      sizes[name] = [meta.width!, meta.height!];
    }
    expect(sizes.thumbnail).toEqual([200, 200]);
    expect(sizes.medium).toEqual([800, 600]);
    expect(sizes.original).toEqual([1200, 900]);
    expect((await http.get("/api/me", { cookie: u.cookie })).body.profile.avatar_url).toBe(res.body.url);

    const second = await uploadAvatar(u.cookie, "again.png", "image/png", png);
    expect(second.status).toBe(200);
    // The old avatar's row is gone at once, so its files are no longer served; the job queue
    // removes them from storage (the worker runs every second in a server).
    expect((await t.app.inject({ method: "GET", url: res.body.variants.original })).statusCode).toBe(404);
    await t.app.ctx.worker.runOnce();
    for (const url of Object.values(res.body.variants) as string[]) {
      expect(await t.app.ctx.storage.head(url.slice("/media/".length))).toBeNull();
    }
  });

  it("refuses what is not an image, whatever its name or declared type", async () => {
    const u = await signedInUser(t);
    const cases: [string, string, Buffer][] = [
      ["avatar.jpg", "image/jpeg", Buffer.from("<html><script>alert(1)</script></html>")],
      ["shell.png", "image/png", Buffer.from('GIF89a<?php echo "hi"; ?>')],
      ["icon.png", "image/png", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')],
      ["empty.png", "image/png", Buffer.alloc(0)],
      ["path.png", "image/png", Buffer.from("/etc/passwd")],
    ];
    for (const [name, type, data] of cases) {
      const res = await uploadAvatar(u.cookie, name, type, data);
      expect(res.status, name).toBe(400);
      expect(res.body.error.message).toBe(MSG.avatarNotImage);
    }
  });

  it("refuses a pixel flood from its header, before decoding", async () => {
    const u = await signedInUser(t);
    // A tiny PNG whose header claims 60000x60000 pixels.
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    png.writeUInt32BE(60000, 16);
    png.writeUInt32BE(60000, 20);
    const res = await uploadAvatar(u.cookie, "flood.png", "image/png", png);
    expect(res.status).toBe(400);
  });

  it("refuses files of 5 MB or more with the spec's message", async () => {
    const u = await signedInUser(t);
    const res = await uploadAvatar(u.cookie, "big.jpg", "image/jpeg", Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(MSG.avatarTooLarge);
  });
});
