import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, readUntil, type TestApp } from "#server/test/harness";
import { AccessCache } from "./realtime.service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("the streams' access cache", () => {
  it("keeps an answer for accessTtlMs, and a sweep lets the expired ones go", async () => {
    const settings = { accessTtlMs: 5_000 };
    const cache = new AccessCache(t.database.pool, settings, t.app.ctx.listener);
    const gone = "00000000-0000-4000-8000-000000000000";
    // A community that does not exist: nobody may see it.
    expect(await cache.read(gone, null, null)).toBeNull();
    expect(await cache.read(gone, "someone", "their-session")).toBeNull();
    expect(cache.size).toBe(2);
    cache.sweep();
    expect(cache.size).toBe(2);
    const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now() + settings.accessTtlMs);
    try {
      cache.sweep();
    } finally {
      clock.mockRestore();
    }
    expect(cache.size).toBe(0);
  });

  it("reads an answer again ahead of its expiry when asked, serving the kept one meanwhile", async () => {
    const settings = { accessTtlMs: 5_000 };
    const cache = new AccessCache(t.database.pool, settings, t.app.ctx.listener);
    const gone = "00000000-0000-4000-8000-00000000000a";
    expect(await cache.read(gone, "u", "s")).toBeNull();
    const query = vi.spyOn(t.database.pool, "query");
    const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now() + 3_000);
    try {
      // Fresh for 2 s more: an ordinary read keeps it, a read 2.5 s ahead reads it again.
      await cache.read(gone, "u", "s");
      expect(query).not.toHaveBeenCalled();
      const again = cache.read(gone, "u", "s", 2_500);
      // Known meanwhile (null: no access), not unknown (undefined).
      expect(cache.peek(gone, "u", "s")).toBeNull();
      expect(await again).toBeNull();
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      clock.mockRestore();
      query.mockRestore();
    }
    expect(cache.size).toBe(1);
  });

  it("does not keep what an opening read when a change was announced since its mark", async () => {
    const cache = new AccessCache(t.database.pool, { accessTtlMs: 60_000 }, t.app.ctx.listener);
    const c = "00000000-0000-4000-8000-00000000000b";
    const stale = cache.mark;
    await t.database.pool.query("SELECT pg_notify('hearth_members', $1)", [`${c}.someone-else`]);
    // The announcement is heard a moment later: the mark moves then.
    expect(
      await readUntil(
        async () => cache.mark,
        (mark) => mark !== stale,
      ),
    ).not.toBe(stale);
    cache.remember(c, "u", "s", { role: "member" }, stale);
    expect(cache.peek(c, "u", "s")).toBeUndefined();
    cache.remember(c, "u", "s", { role: "member" }, cache.mark);
    expect(cache.peek(c, "u", "s")).toEqual({ role: "member" });
  });
});
