import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { api } from "#server/test/harness";
import { query, t, useSeededApp } from "./seed.test-helpers";

useSeededApp();

// The demo's money: paid communities sell tiers, members pay through the simulated provider.

describe("demo payments", () => {
  it("gives every paid demo community tiers with prices, and a free tier where one is sold", async () => {
    const rows = await query<{ name: string; tiers: string[]; free: boolean[]; monthly: number[] }>(sql`
      SELECT c.name, array_agg(t.name ORDER BY t.position) AS tiers, array_agg(t.is_free ORDER BY t.position) AS free,
             array_remove(array_agg(p.amount ORDER BY t.position), NULL) AS monthly
        FROM communities c JOIN community_tiers t ON t.community_id = c.id
        LEFT JOIN prices p ON p.tier_id = t.id AND p.interval = 'month' AND p.active
       WHERE c.type = 'paid' GROUP BY c.name ORDER BY c.name`);
    expect(rows.map((r) => r.name)).toEqual([
      "Consulting Playbook",
      "Dividend Investors Circle",
      "Indie Founders Club",
    ]);
    expect(rows.find((r) => r.name === "Indie Founders Club")).toMatchObject({
      tiers: ["Standard", "VIP"],
      monthly: [4900, 14900],
    });
    expect(rows.find((r) => r.name === "Dividend Investors Circle")).toMatchObject({
      tiers: ["Free", "Premium"],
      free: [true, false],
    });
  });

  it("has paying members whose subscriptions the simulated provider knows, and a year of payments", async () => {
    const [counts] = await query<{ subscribers: number; known: number; payments: number; members: number }>(sql`
      SELECT (SELECT count(*)::int FROM entitlements WHERE kind = 'community') AS subscribers,
             (SELECT count(*)::int FROM entitlements e JOIN simulated_objects o ON o.id = e.provider_subscription_id) AS known,
             (SELECT count(*)::int FROM payments WHERE status = 'succeeded') AS payments,
             (SELECT count(*)::int FROM entitlements e JOIN community_members m
                 ON m.community_id = e.community_id AND m.user_id = e.user_id) AS members`);
    expect(counts.subscribers).toBeGreaterThan(50);
    expect(counts.known).toBe(counts.subscribers);
    expect(counts.members).toBe(counts.subscribers);
    expect(counts.payments).toBeGreaterThan(counts.subscribers);
    // The landing's chooser reads them.
    const res = await api(t.app).get("/api/communities/indie-founders-club/tiers");
    expect(res.status).toBe(200);
    expect(res.body.tiers.map((x: { name: string }) => x.name)).toEqual(["Standard", "VIP"]);
  });
});
