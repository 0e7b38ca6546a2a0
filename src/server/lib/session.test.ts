import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { HearthApp } from "#server/app";
import { api, createTestApp, readUntil, secondProcess, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let other: HearthApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await secondProcess(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

describe("cached session lookup", () => {
  it("is cached, and a sign-out through one process ends the session in the other", async () => {
    const u = await signedInUser(t);
    const b = api(other);
    expect((await b.get("/api/me", { cookie: u.cookie })).body.user.email).toBe(u.email);
    expect(other.ctx.viewer.cacheSize()).toBeGreaterThan(0);
    await api(t.app).post("/api/auth/sign-out", {}, { cookie: u.cookie });
    // Same process: at once.
    expect((await api(t.app).get("/api/me", { cookie: u.cookie })).body.user).toBeNull();
    // Other process: as soon as the database's notification arrives.
    const res = await readUntil(
      () => b.get("/api/me", { cookie: u.cookie }),
      (r) => r.body.user === null,
    );
    expect(res.body.user).toBeNull();
  });

  it("shows a profile change made through another process", async () => {
    const u = await signedInUser(t);
    const b = api(other);
    expect((await b.get("/api/me", { cookie: u.cookie })).body.profile.headline).toBe("");
    await api(t.app).patch("/api/me/profile", { headline: "Changed elsewhere" }, { cookie: u.cookie });
    expect((await api(t.app).get("/api/me", { cookie: u.cookie })).body.profile.headline).toBe("Changed elsewhere");
    const res = await readUntil(
      () => b.get("/api/me", { cookie: u.cookie }),
      (r) => r.body.profile.headline === "Changed elsewhere",
    );
    expect(res.body.profile.headline).toBe("Changed elsewhere");
  });

  it("drops sessions revoked by SQL outside any app code path", async () => {
    const u = await signedInUser(t);
    const b = api(other);
    expect((await b.get("/api/me", { cookie: u.cookie })).body.user).not.toBeNull();
    await t.database.pool.query(`DELETE FROM session WHERE user_id = $1`, [u.id]);
    const res = await readUntil(
      () => b.get("/api/me", { cookie: u.cookie }),
      (r) => r.body.user === null,
    );
    expect(res.body.user).toBeNull();
  });

  it("lets its expired entries go when swept, and keeps the fresh ones", async () => {
    const u = await signedInUser(t);
    const b = api(other);
    expect((await b.get("/api/me", { cookie: u.cookie })).body.user.email).toBe(u.email);
    const held = other.ctx.viewer.cacheSize();
    expect(held).toBeGreaterThan(0);
    other.ctx.viewer.sweep();
    expect(other.ctx.viewer.cacheSize()).toBe(held);
    // Past the cache's 30 s: every entry has expired.
    const later = Date.now() + 31_000;
    const clock = vi.spyOn(Date, "now").mockReturnValue(later);
    try {
      other.ctx.viewer.sweep();
    } finally {
      clock.mockRestore();
    }
    expect(other.ctx.viewer.cacheSize()).toBe(0);
    // And the session is read again on the next request.
    expect((await b.get("/api/me", { cookie: u.cookie })).body.user.email).toBe(u.email);
    expect(other.ctx.viewer.cacheSize()).toBe(1);
  });
});
