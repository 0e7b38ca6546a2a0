import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "#server/seed/content/accounts.data";
import { t, useSeededApp } from "#server/seed/seed.test-helpers";
import { api, sessionCookie } from "#server/test/harness";

/*
 * The demo's reports (issue 22): Newsletter Operators, where owner@hearth.test is an admin, has two
 * open cases, one post hidden pending review; the demo accounts' notifications are untouched.
 */

useSeededApp();

describe("demo reports", () => {
  it("shows the admin demo account an open queue with one hidden post, and leaves its bell alone", async () => {
    const http = api(t.app);
    const res = await http.post("/api/auth/sign-in/email", { email: "owner@hearth.test", password: DEMO_PASSWORD });
    const cookie = sessionCookie(res.headers);
    const queue = await http.get("/api/communities/newsletter-operators/reports", { cookie });
    expect(queue.status).toBe(200);
    expect(queue.body.items.map((c: { status: string; report_count: number }) => [c.status, c.report_count])).toEqual([
      ["open", 3],
      ["open", 2],
    ]);
    expect(queue.body.items.map((c: { hidden: boolean }) => c.hidden)).toEqual([true, false]);
    for (const c of queue.body.items) expect(c.reports).toHaveLength(c.report_count);
    expect((await http.get("/api/communities/newsletter-operators/reports/count", { cookie })).body).toEqual({
      open: 2,
    });
    // The hidden post is out of the feed; its author was told.
    const hiddenId = queue.body.items[0].target_id;
    const feed = await http.get("/api/communities/newsletter-operators/posts", { cookie });
    expect(feed.body.items.map((p: { id: string }) => p.id)).not.toContain(hiddenId);
    const told = await t.database.pool.query(
      `SELECT 1 FROM notifications n JOIN posts p ON p.author_id = n.user_id
        WHERE p.id = $1 AND n.type = 'content_hidden'`,
      [hiddenId],
    );
    expect(told.rows).toHaveLength(1);
    const demoNotices = await t.database.pool.query(
      `SELECT 1 FROM notifications n JOIN "user" u ON u.id = n.user_id
        WHERE u.email IN ('owner@hearth.test', 'member@hearth.test') AND n.type IN ('report_new', 'content_hidden', 'report_outcome')`,
    );
    expect(demoNotices.rows).toHaveLength(0);
  });
});
