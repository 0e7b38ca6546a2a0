import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "#server/test/harness";
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
});
