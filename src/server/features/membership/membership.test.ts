import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOIN_MESSAGES, JOIN_REQUEST_LIMITS } from "#shared/membership";
import { MSG } from "#shared/messages";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "#server/test/smtp-sink";

let t: TestApp;
let http: ReturnType<typeof api>;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ smtpUrl: smtp.url });
  http = api(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type Community = { id: string; slug: string };

let seq = 0;
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

/** A community taking requests with two questions. */
async function requestCommunity(owner: User, settings: Record<string, unknown> = {}, visibility = "public") {
  const res = await http.post("/api/communities", { name: `Gatehouse ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  const c = res.body as Community;
  if (visibility === "private") {
    expect((await http.patch(`/api/communities/${c.id}`, { visibility }, { cookie: owner.cookie })).status).toBe(200);
  }
  const saved = await http.patch(
    `/api/communities/${c.id}/membership`,
    { join_policy: "request", questions: ["Why join?", "What do you do?"], ...settings },
    { cookie: owner.cookie },
  );
  expect(saved.status).toBe(200);
  return c;
}
const apply = (c: Community, u: User, body: unknown = { answers: ["To learn", "I build things"] }) =>
  http.post(`/api/communities/${c.id}/join-requests`, body, { cookie: u.cookie });
const list = (c: Community, u: User, cursor?: string) =>
  http.get(`/api/communities/${c.id}/join-requests${cursor ? `?cursor=${cursor}` : ""}`, { cookie: u.cookie });
const decide = (c: Community, u: User, ids: string[], decision: "approve" | "decline", reason?: string) =>
  http.post(`/api/communities/${c.id}/join-requests/decide`, { ids, decision, reason }, { cookie: u.cookie });
const roleOf = async (c: Community, u: User) =>
  (
    await q<{ role: string }>(`SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2`, [
      c.id,
      u.id,
    ])
  )[0]?.role ?? null;
const memberCount = async (c: Community) =>
  (await q<{ n: number }>(`SELECT member_count AS n FROM communities WHERE id = $1`, [c.id]))[0].n;
const notes = (u: User, type: string) =>
  q<{ title: string; body: string; data: Record<string, unknown> }>(
    `SELECT title, body, data FROM notifications WHERE user_id = $1 AND type = $2 ORDER BY created_at`,
    [u.id, type],
  );
/** The notifications the person sees through the API (mayReceive applied). */
const bell = async (u: User) =>
  ((await http.get("/api/notifications", { cookie: u.cookie })).body.items ?? []) as { type: string; title: string }[];

/** Waits until `check` holds: the worker delivers queued mail after the decision's commit. */
async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await t.app.ctx.worker.runOnce();
    await new Promise((r) => setImmediate(r));
  }
}
const mailsTo = (u: User) => smtp.received.filter((m) => m.to.includes(u.email));
const plain = (m: ReceivedMail) =>
  m.data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe("join requests", () => {
  it("apply, list with answers, approve: the applicant becomes a member, is notified and e-mailed; admins heard of the request", async () => {
    const owner = await signedInUser(t);
    const admin = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner);
    await q(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'admin')`, [c.id, admin.id]);

    // JOIN is refused while the community takes requests.
    const join = await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie });
    expect(join.status).toBe(403);
    expect(join.body.error.message).toBe(JOIN_MESSAGES.requestNeeded);

    const made = await apply(c, u);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ joined: false, request: { status: "pending", reason: null, retry_after: null } });
    const again = await apply(c, u);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(JOIN_MESSAGES.alreadyPending);

    // The community view tells the applicant their request is waiting.
    const view = await http.get(`/api/communities/${c.id}`, { cookie: u.cookie });
    expect(view.body.viewer.join_request).toMatchObject({ id: made.body.request.id, status: "pending" });

    for (const who of [owner, admin]) {
      const [n] = await notes(who, "join_request");
      expect(n.data).toMatchObject({ tab: "admin", request_id: made.body.request.id });
      expect(n.title).toContain("asked to join");
    }

    const page = await list(c, admin);
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(1);
    expect(page.body.items[0]).toMatchObject({
      id: made.body.request.id,
      status: "pending",
      user: { user_id: u.id, username: u.username },
      answers: [
        { question: "Why join?", answer: "To learn" },
        { question: "What do you do?", answer: "I build things" },
      ],
      email: null,
    });

    const before = await memberCount(c);
    const res = await decide(c, admin, [made.body.request.id], "approve");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: 1, declined: 0, skipped: 0 });
    expect(res.body.results[0]).toMatchObject({ status: "approved", joined: true });
    expect(await roleOf(c, u)).toBe("member");
    expect(await memberCount(c)).toBe(before + 1);
    // The same path as JOIN: the owner hears of the new member.
    expect((await notes(owner, "community_join")).length).toBe(1);
    const [approved] = await notes(u, "join_approved");
    expect(approved.title).toContain("You're in!");
    expect((await bell(u)).map((n) => n.type)).toContain("join_approved");
    await until(() => mailsTo(u).length > 0);
    expect(plain(mailsTo(u)[0])).toContain("You're in!");
    expect((await list(c, owner)).body.count).toBe(0);
  });

  it("decline with a reason: notified and e-mailed with it; the cooldown holds a new request back", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner, { cooldown_days: 3 });
    const made = await apply(c, u);
    const res = await decide(c, owner, [made.body.request.id], "decline", "We are full this month");
    expect(res.body).toMatchObject({ approved: 0, declined: 1, skipped: 0 });
    expect(await roleOf(c, u)).toBeNull();
    const [n] = await notes(u, "join_declined");
    expect(n.body).toBe("We are full this month");
    await until(() => mailsTo(u).length > 0);
    expect(plain(mailsTo(u)[0])).toContain("We are full this month");

    const view = await http.get(`/api/communities/${c.id}`, { cookie: u.cookie });
    expect(view.body.viewer.join_request).toMatchObject({ status: "declined", reason: "We are full this month" });
    const retry = view.body.viewer.join_request.retry_after as string;
    expect(Date.parse(retry) - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    const soon = await apply(c, u);
    expect(soon.status).toBe(409);
    expect(soon.body.error.message).toMatch(/^You can ask to join again on /);

    // After the cooldown they may ask again.
    await q(`UPDATE join_requests SET decided_at = now() - interval '4 days' WHERE id = $1`, [made.body.request.id]);
    expect((await apply(c, u)).status).toBe(201);
  });

  it("withdraw takes back a pending request; a second withdraw finds none", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner);
    await apply(c, u);
    expect((await http.delete(`/api/communities/${c.id}/join-requests/mine`, { cookie: u.cookie })).status).toBe(204);
    expect((await list(c, owner)).body.count).toBe(0);
    const again = await http.delete(`/api/communities/${c.id}/join-requests/mine`, { cookie: u.cookie });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(JOIN_MESSAGES.requestNotFound);
    // Withdrawn is no decline: they may ask again at once.
    expect((await apply(c, u)).status).toBe(201);
    // Joining through an invite meanwhile takes them off the queue.
    const code = (await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body.invite_code;
    expect((await list(c, owner)).body.count).toBe(1);
    expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie })).status).toBe(200);
    expect((await list(c, owner)).body).toMatchObject({ count: 0, items: [] });
  });

  it("bulk: a mix of pending, decided and unknown requests decides the pending ones and reports the rest", async () => {
    const owner = await signedInUser(t);
    const c = await requestCommunity(owner);
    const people = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
    const ids: string[] = [];
    for (const p of people) ids.push((await apply(c, p)).body.request.id);
    expect((await decide(c, owner, [ids[0]], "decline")).body.declined).toBe(1);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const res = await decide(c, owner, [ids[0], ids[1], ids[2], unknown], "approve");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: 2, declined: 0, skipped: 2 });
    expect(res.body.results).toEqual([
      { id: ids[0], status: "skipped", message: JOIN_MESSAGES.requestDecided, joined: false },
      { id: ids[1], status: "approved", message: null, joined: true },
      { id: ids[2], status: "approved", message: null, joined: true },
      { id: unknown, status: "skipped", message: JOIN_MESSAGES.requestNotFound, joined: false },
    ]);
    expect(await roleOf(c, people[0])).toBeNull();
    expect(await roleOf(c, people[1])).toBe("member");
    // Another community's request is not this one's to decide.
    const other = await requestCommunity(owner);
    const foreign = (await apply(other, people[0])).body.request.id;
    expect((await decide(c, owner, [foreign], "approve")).body.results[0].status).toBe("skipped");
    // Two admins approving the same request at once: it is decided once, the member counted once.
    const racer = await signedInUser(t);
    const raced = (await apply(c, racer)).body.request.id;
    const before = await memberCount(c);
    const both = await Promise.all([decide(c, owner, [raced], "approve"), decide(c, owner, [raced], "approve")]);
    expect(both.map((r) => r.body.approved).sort()).toEqual([0, 1]);
    expect(await memberCount(c)).toBe(before + 1);
    expect((await notes(racer, "join_approved")).length).toBe(1);
    // At most bulkMax at once.
    const tooMany = Array.from({ length: JOIN_REQUEST_LIMITS.bulkMax + 1 }, () => unknown);
    expect((await decide(c, owner, tooMany, "approve")).status).toBe(400);
  });

  it("pages oldest first with a cursor", async () => {
    const owner = await signedInUser(t);
    const c = await requestCommunity(owner, { questions: [] });
    const n = JOIN_REQUEST_LIMITS.page + 2;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await apply(c, await signedInUser(t), { answers: [] })).body.request.id);
    const first = await list(c, owner);
    expect(first.body.count).toBe(n);
    expect(first.body.items).toHaveLength(JOIN_REQUEST_LIMITS.page);
    const second = await list(c, owner, first.body.next_cursor);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.items, ...second.body.items].map((r: { id: string }) => r.id)).toEqual(ids);
  });

  it("auto-approve joins at once; turning it on approves the pending requests", async () => {
    const owner = await signedInUser(t);
    const c = await requestCommunity(owner);
    const [a, b, late] = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
    await apply(c, a);
    await apply(c, b);
    const on = await http.patch(
      `/api/communities/${c.id}/membership`,
      { auto_approve: true },
      { cookie: owner.cookie },
    );
    expect(on.body.auto_approve).toBe(true);
    expect(await roleOf(c, a)).toBe("member");
    expect(await roleOf(c, b)).toBe("member");
    expect((await list(c, owner)).body.count).toBe(0);
    const made = await apply(c, late);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ joined: true, request: { status: "approved" } });
    expect(await roleOf(c, late)).toBe("member");
    // Already a member now.
    const again = await apply(c, late);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(JOIN_MESSAGES.alreadyMember);
  });

  it("validates answers: their count, emptiness, length and the e-mail when asked", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner, { ask_email: true });
    const email = "me@example.test";
    const cases: [unknown, string][] = [
      [{ answers: ["only one"], email }, JOIN_MESSAGES.answerRequired],
      [{ answers: ["a", "b", "c"], email }, JOIN_MESSAGES.answersCount],
      [{ answers: ["a", "   "], email }, JOIN_MESSAGES.answerRequired],
      [{ answers: ["a", "x".repeat(JOIN_REQUEST_LIMITS.answerMax + 1)], email }, JOIN_MESSAGES.answerTooLong],
      [{ answers: ["a", "b"] }, JOIN_MESSAGES.emailRequired],
      [{ answers: ["a", "b"], email: "not-an-email" }, JOIN_MESSAGES.emailInvalid],
    ];
    for (const [body, message] of cases) {
      const res = await apply(c, u, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const ok = await apply(c, u, { answers: ["<b>hi</b>", "b"], email });
    expect(ok.status).toBe(201);
    const [row] = (await list(c, owner)).body.items;
    expect(row.email).toBe(email);
    expect(row.answers[0].answer).toBe("<b>hi</b>");
    // Settings: at most 3 questions, none empty.
    const four = await http.patch(
      `/api/communities/${c.id}/membership`,
      { questions: ["a", "b", "c", "d"] },
      { cookie: owner.cookie },
    );
    expect(four.status).toBe(400);
    expect(four.body.error.message).toBe(JOIN_MESSAGES.tooManyQuestions);
  });

  it("an open or invite-only community takes no requests; a member and a banned user cannot apply", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const open = (await http.post("/api/communities", { name: `Open door ${++seq}` }, { cookie: owner.cookie })).body;
    const res = await apply(open, u, { answers: [] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(JOIN_MESSAGES.notTakingRequests);
    await http.patch(`/api/communities/${open.id}/membership`, { join_policy: "invite" }, { cookie: owner.cookie });
    const join = await http.post(`/api/communities/${open.id}/join`, {}, { cookie: u.cookie });
    expect(join.status).toBe(403);
    expect(join.body.error.message).toBe(JOIN_MESSAGES.inviteOnly);
    // An invite still lets them in.
    const code = (await http.get(`/api/communities/${open.id}`, { cookie: owner.cookie })).body.invite_code;
    expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie })).status).toBe(200);

    const c = await requestCommunity(owner);
    expect((await apply(c, owner)).status).toBe(409);
    const banned = await signedInUser(t);
    await q(`INSERT INTO community_bans (community_id, user_id) VALUES ($1, $2)`, [c.id, banned.id]);
    const refused = await apply(c, banned);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(MSG.bannedFromCommunity);
  });

  it("a private community: never open; its gate takes requests while its content stays hidden; listed only when chosen", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner, {}, "private");
    const open = await http.patch(
      `/api/communities/${c.id}/membership`,
      { join_policy: "open" },
      { cookie: owner.cookie },
    );
    expect(open.status).toBe(400);
    expect(open.body.error.message).toBe(JOIN_MESSAGES.privateOpen);

    // The gate: the page answers PRIVATE_COMMUNITY, the form shows the questions.
    expect((await http.get(`/api/communities/${c.id}`, { cookie: u.cookie })).body.error.code).toBe(
      "PRIVATE_COMMUNITY",
    );
    const form = await http.get(`/api/communities/${c.id}/join-requests/mine`, { cookie: u.cookie });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({
      join_policy: "request",
      questions: ["Why join?", "What do you do?"],
      request: null,
    });
    const made = await apply(c, u);
    expect(made.status).toBe(201);
    expect(
      (await http.get(`/api/communities/${c.id}/join-requests/mine`, { cookie: u.cookie })).body.request,
    ).toMatchObject({
      status: "pending",
    });
    // Content stays hidden from the applicant.
    expect((await http.get(`/api/communities/${c.id}/posts`, { cookie: u.cookie })).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/members`, { cookie: u.cookie })).status).toBe(404);

    // The declined applicant of a private community still hears of it (mayReceive by request_id).
    await decide(c, owner, [made.body.request.id], "decline", "Not now");
    expect((await bell(u)).map((n) => n.type)).toContain("join_declined");
    // A bystander never sees it, even given the same data.
    const by = await signedInUser(t);
    await q(
      `INSERT INTO notifications (user_id, community_id, type, title, body, data) VALUES ($1, $2, 'join_declined', 'x', '', $3)`,
      [by.id, c.id, JSON.stringify({ request_id: made.body.request.id })],
    );
    expect((await bell(by)).map((n) => n.type)).not.toContain("join_declined");

    // Directory: hidden until listed.
    const [{ name }] = await q<{ name: string }>(`SELECT name FROM communities WHERE id = $1`, [c.id]);
    const dir = async () => {
      const res = await http.get(`/api/communities?q=${encodeURIComponent(name)}`);
      expect(res.status).toBe(200);
      return (res.body.items as { id: string }[]).map((i) => i.id);
    };
    expect(await dir()).not.toContain(c.id);
    await http.patch(`/api/communities/${c.id}/membership`, { listed: true }, { cookie: owner.cookie });
    expect(await dir()).toContain(c.id);
    expect((await http.get(`/api/communities/${c.id}/posts`)).status).toBe(404);

    // A private invite-only community is answered as missing to outsiders.
    const hidden = (await http.post("/api/communities", { name: `Back room ${++seq}` }, { cookie: owner.cookie })).body;
    await http.patch(`/api/communities/${hidden.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect(
      (await http.get(`/api/communities/${hidden.id}/membership`, { cookie: owner.cookie })).body.join_policy,
    ).toBe("invite");
    expect((await http.get(`/api/communities/${hidden.id}/join-requests/mine`, { cookie: u.cookie })).status).toBe(404);
    expect((await apply(hidden, u, { answers: [] })).status).toBe(404);
  });

  it("a paid community: approval sends the applicant to the checkout, which is theirs only then", async () => {
    const owner = await signedInUser(t);
    const u = await signedInUser(t);
    const c = await requestCommunity(owner, { questions: [] });
    const tiers = [
      { name: "VIP", description: "", free: false, monthly_amount: 4900, annual_amount: null, trial_days: 0 },
    ];
    const priced = await http.put(
      `/api/communities/${c.id}/pricing`,
      { currency: "usd", grace_days: 7, tiers },
      { cookie: owner.cookie },
    );
    expect(priced.status).toBe(200);
    const tierId = (await http.get(`/api/communities/${c.id}/tiers`)).body.tiers[0].id as string;
    const checkout = () =>
      http.post("/api/billing/checkout", { product: "tier", tier_id: tierId, interval: "month" }, { cookie: u.cookie });
    const early = await checkout();
    expect(early.status).toBe(403);
    expect(early.body.error.message).toBe(JOIN_MESSAGES.requestNeeded);
    const made = await apply(c, u, { answers: [] });
    const res = await decide(c, owner, [made.body.request.id], "approve");
    expect(res.body.results[0]).toMatchObject({ status: "approved", joined: false });
    expect(await roleOf(c, u)).toBeNull();
    expect((await notes(u, "join_approved"))[0].body).toBe(JOIN_MESSAGES.approvedCheckoutBody);
    // JOIN now proceeds to the paid flow, and the checkout starts.
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie })).status).toBe(402);
    expect((await checkout()).status).toBe(201);
  });

  it("permissions: settings for owners and admins; the queue and decisions for owners and admins", async () => {
    const owner = await signedInUser(t);
    const c = await requestCommunity(owner);
    const mod = await signedInUser(t);
    const member = await signedInUser(t);
    await q(
      `INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'moderator'), ($1, $3, 'member')`,
      [c.id, mod.id, member.id],
    );
    for (const who of [mod, member]) {
      expect((await http.get(`/api/communities/${c.id}/membership`, { cookie: who.cookie })).status).toBe(403);
      expect(
        (await http.patch(`/api/communities/${c.id}/membership`, { listed: true }, { cookie: who.cookie })).status,
      ).toBe(403);
      expect((await list(c, who)).status).toBe(403);
      expect((await decide(c, who, ["00000000-0000-4000-8000-000000000000"], "approve")).status).toBe(403);
    }
    expect((await http.get(`/api/communities/${c.id}/membership`)).status).toBe(401);
    expect((await http.post(`/api/communities/${c.id}/join-requests`, { answers: [] })).status).toBe(401);
  });
});
