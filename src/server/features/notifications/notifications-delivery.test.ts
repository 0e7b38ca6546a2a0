import { describe, expect, it } from "vitest";
import { NOTIFICATION_LIMITS } from "#shared/notifications";
import { mailTo } from "#server/test/harness";
import { connectSse } from "#server/test/sse";
import {
  base,
  comment,
  community,
  http,
  items,
  join,
  like,
  post,
  settings,
  streams,
  t,
  user,
  useNotificationsApp,
  type User,
} from "./notifications.test-helpers";

useNotificationsApp();

describe("realtime", () => {
  it("reaches every open stream of the recipient at once, only theirs, and replays what a reconnect missed", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    const tabA = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    const tabB = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    const fanTab = await connectSse(`${base}/api/realtime/notifications`, { cookie: fan.cookie });
    streams.push(tabA, tabB, fanTab);
    for (const s of [tabA, tabB, fanTab]) await s.next((f) => f.event === "ready");

    const p1 = await post(c, author, "One");
    const sent = Date.now();
    await like(p1, fan);
    const id1 = (await items(author))[0].id;
    // The 1 s bound is asserted across two processes (two-processes.test.ts); here the load of a
    // parallel test run must not make it flaky.
    // The join's notification came before the streams opened; under load the hub may still hand it
    // to them first: each stream is read up to the like's.
    const [a, b] = await Promise.all(
      [tabA, tabB].map((s) => s.next((f) => f.event === "notification" && f.data.id === id1, { ms: 5000 })),
    );
    expect(a.data).toEqual({ type: "notification", id: id1 });
    expect(b.data).toEqual({ type: "notification", id: id1 });
    expect(a.at - sent).toBeLessThan(5000);
    expect(fanTab.frames.filter((f) => f.event === "notification")).toHaveLength(0);

    // Tab A goes away; two more arrive; it comes back with Last-Event-ID and gets exactly those two.
    tabA.close();
    const p2 = await post(c, author, "Two");
    const p3 = await post(c, author, "Three");
    await like(p2, fan);
    await like(p3, fan);
    const newest = (await items(author)).slice(0, 2).map((n) => n.id);
    await tabB.next((f) => f.event === "notification" && f.data.id === newest[1], { from: 0 });
    await new Promise((r) => setTimeout(r, 200));
    const back = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie, lastEventId: a.id! });
    streams.push(back);
    await back.next((f) => f.event === "notification" && f.data.id === newest[0], { ms: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    const replayed = back.frames.filter((f) => f.event === "notification");
    expect(replayed.map((f) => f.data.id)).toEqual([...newest].reverse());
    await tabB.next((f) => f.event === "notification" && f.data.id === newest[0], { ms: 5000 });
    const seenByB = tabB.frames.filter((f) => f.event === "notification").map((f) => f.id);
    expect(seenByB.slice(seenByB.indexOf(a.id))).toEqual([a.id, ...replayed.map((f) => f.id)]);
  });

  it("tells the viewer's other tabs when notifications were marked read", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    await like(await post(c, author), fan);
    const other = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    streams.push(other);
    await other.next((f) => f.event === "ready");
    const [n] = await items(author);
    await http.post(`/api/notifications/${n.id}/read`, {}, { cookie: author.cookie });
    await other.next((f) => f.event === "read", { ms: 5000 });
    // Mark all (the join is still unread) says so too; then with nothing unread, neither says anything.
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await http.post(`/api/notifications/${n.id}/read`, {}, { cookie: author.cookie });
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await new Promise((r) => setTimeout(r, 300));
    expect(other.frames.filter((f) => f.event === "read")).toHaveLength(2);
    await like(await post(c, author), fan);
    await other.next((f) => f.event === "notification");
    await http.post("/api/notifications/read-all", {}, { cookie: author.cookie });
    await other.next((f) => f.event === "read", { from: other.frames.length - 1, ms: 5000 });
  });

  it("ends the stream of a session that signed out, at the next event", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    const stream = await connectSse(`${base}/api/realtime/notifications`, { cookie: author.cookie });
    streams.push(stream);
    await stream.next((f) => f.event === "ready");
    const p = await post(c, author);
    // The fan's join notified the author just before the stream opened; its NOTIFY may reach the
    // stream after it did, while the session was still alive. What counts is nothing after sign-out.
    const notifications = () => stream.frames.filter((f) => f.event === "notification").length;
    expect((await http.post("/api/auth/sign-out", {}, { cookie: author.cookie })).status).toBe(200);
    const atSignOut = notifications();
    await like(p, fan);
    for (let i = 0; i < 100 && !stream.ended; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stream.ended).toBe(true);
    expect(notifications()).toBe(atSignOut);
  });

  it("is for signed-in users only", async () => {
    const res = await connectSse(`${base}/api/realtime/notifications`);
    expect(res.status).toBe(401);
  });
});

describe("email digests", () => {
  const jobsFor = async (userId: string) =>
    (
      await t.database.pool.query(
        `SELECT id, run_at, done_at FROM jobs WHERE queue = 'notifications.digest' AND payload->>'userId' = $1 ORDER BY id`,
        [userId],
      )
    ).rows as { id: number; run_at: Date; done_at: Date | null }[];
  const runDue = async (userId: string) => {
    await t.database.pool.query(
      `UPDATE jobs SET run_at = now() WHERE queue = 'notifications.digest' AND payload->>'userId' = $1 AND done_at IS NULL`,
      [userId],
    );
    await t.app.ctx.worker.runOnce();
  };

  it("mails unread notifications at most every 15 minutes, with an unsubscribe link that turns email off", async () => {
    const author = await user();
    const c = await community(author);
    const p = await post(c, author, "Digest me");
    const fans: User[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await user(`Reader ${i}`);
      await join(c, fan);
      fans.push(fan);
    }
    // 3 joins, one job, due after the gathering delay.
    const [job] = await jobsFor(author.id);
    expect(await jobsFor(author.id)).toHaveLength(1);
    const delay = (job.run_at.getTime() - Date.now()) / 1000;
    expect(delay).toBeGreaterThan(NOTIFICATION_LIMITS.digestDelaySeconds - 30);
    expect(delay).toBeLessThanOrEqual(NOTIFICATION_LIMITS.digestDelaySeconds);
    await like(p, fans[0]);
    expect(await jobsFor(author.id)).toHaveLength(1);
    // One read in the app before the digest goes: it is not mailed.
    const readOne = (await items(author)).find((n) => n.title === "Reader 2 joined your community")!;
    await http.post(`/api/notifications/${readOne.id}/read`, {}, { cookie: author.cookie });

    await runDue(author.id);
    const mails = await mailTo(t, author.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("You have 3 new notifications on Hearth");
    expect(mails[0].text).toContain("Reader 0 liked your post");
    expect(mails[0].text).toContain("Reader 1 joined your community");
    expect(mails[0].text).not.toContain("Reader 2 joined");
    expect(mails[0].text).toContain(`${t.config.publicUrl}/community/${c.id}#post-${p.id}`);
    const stored = (await t.database.pool.query(`SELECT headers FROM mail_messages WHERE "to" = $1`, [author.email]))
      .rows[0].headers as Record<string, string>;
    expect(stored["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // The next one waits for 15 minutes after the last digest.
    await like(await post(c, author, "Another"), fans[1]);
    const jobs = await jobsFor(author.id);
    expect(jobs).toHaveLength(2);
    const wait = (jobs[1].run_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(NOTIFICATION_LIMITS.digestIntervalSeconds - 30);
    expect(wait).toBeLessThanOrEqual(NOTIFICATION_LIMITS.digestIntervalSeconds);
    await runDue(author.id);
    const second = await mailTo(t, author.email);
    expect(second).toHaveLength(2);
    expect(second[0].subject).toBe("You have a new notification on Hearth");
    expect(second[0].text).not.toContain("Reader 0 liked");

    // The link in the mail turns email notifications off, without a session.
    const link = second[0].text.match(/Turn them off: (\S+)/)![1];
    expect(link).toMatch(/\/notifications\/unsubscribe\?token=/);
    const token = new URL(link).searchParams.get("token")!;
    expect((await http.post("/api/notifications/unsubscribe", { token: `${token}x` })).status).toBe(400);
    const off = await http.post("/api/notifications/unsubscribe", { token });
    expect(off.body).toEqual({ email_enabled: false });
    expect((await http.get("/api/me/notification-settings", { cookie: author.cookie })).body.email_enabled).toBe(false);
    await like(await post(c, author, "Quiet now"), fans[2]);
    expect(await jobsFor(author.id)).toHaveLength(2);
    expect((await items(author))[0].title).toBe("Reader 2 liked your post");
  });

  it("accepts a mail client's one-click unsubscribe (a cross-site form post) and nothing else without a token", async () => {
    const u = await user();
    const link = (await import("#server/lib/notifications")).unsubscribeToken(t.config.authSecret, u.id);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/notifications/unsubscribe?token=${encodeURIComponent(link)}`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example.com",
        "sec-fetch-site": "cross-site",
      },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect((await http.get("/api/me/notification-settings", { cookie: u.cookie })).body.email_enabled).toBe(false);
    const bad = await t.app.inject({ method: "POST", url: "/api/notifications/unsubscribe", payload: {} });
    expect(bad.statusCode).toBe(400);
    // Other writes from another site are still refused.
    const other = await t.app.inject({
      method: "POST",
      url: "/api/notifications/read-all",
      headers: { origin: "https://mail.example.com", cookie: u.cookie },
    });
    expect(other.statusCode).toBe(403);
  });

  it("escapes names and text in the digest's HTML", async () => {
    const author = await user();
    const fan = await user(`<img src=x onerror=alert(1)>`);
    const c = await community(author);
    await join(c, fan);
    const p = await post(c, author, "Plain");
    await comment(p, fan, `<script>alert("hi")</script>`);
    await runDue(author.id);
    const { html } = (await t.database.pool.query(`SELECT html FROM mail_messages WHERE "to" = $1`, [author.email]))
      .rows[0] as { html: string };
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; commented on your post");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/<script|<img/);
  });

  it("sends nothing when the user turned email off before the digest went out", async () => {
    const author = await user();
    const fan = await user();
    const c = await community(author);
    await join(c, fan);
    expect(await jobsFor(author.id)).toHaveLength(1);
    await settings(author, { email_enabled: false });
    await runDue(author.id);
    expect(await mailTo(t, author.email)).toHaveLength(0);
    const [s] = (
      await t.database.pool.query(`SELECT digest_due_at FROM user_notification_settings WHERE user_id = $1`, [
        author.id,
      ])
    ).rows;
    expect(s.digest_due_at).toBeNull();
  });
});
