/**
 * I4 (credential stuffing, flooding) and S6 (the link preview as an open proxy): each limit of
 * lib/rate-limit.ts answers 429 with Retry-After once its count is spent, only for the address
 * or account that spent it, and for a bounded time (no permanent lockout).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_RULES } from "#server/lib/rate-limit";
import { api, clearOfWindowEnd, createTestApp, ORIGIN, signedInUser, upload, type TestApp } from "#server/test/harness";
import { ok } from "./world";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: true });
  http = api(t.app);
});
afterAll(() => t.close());

let n = 0;
const unique = () => `${Date.now().toString(36)}${n++}`;

/** A JSON POST from one client address (the app does not trust forwarded headers by default). */
async function postFrom(ip: string, url: string, body: unknown, cookie?: string) {
  const res = await t.app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { origin: ORIGIN, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body || "null") };
}

function expectLimited(
  res: { status: number; headers: Record<string, unknown>; body: { error?: { code: string } } },
  windowSeconds: number,
) {
  expect(res.status).toBe(429);
  expect(res.body.error?.code).toBe("RATE_LIMITED");
  const retry = Number(res.headers["retry-after"]);
  expect(retry).toBeGreaterThan(0);
  // Bounded: at most one window, never a permanent lockout.
  expect(retry).toBeLessThanOrEqual(windowSeconds);
}

const signIn = (ip: string, email: string, password = "guess-123") =>
  postFrom(ip, "/api/auth/sign-in/email", { email, password });

describe("I4: sign-in", () => {
  it(`one address: ${RATE_RULES.signInPerIp.limit} attempts across many accounts, then 429; another address is unaffected`, async () => {
    const { limit, windowSeconds } = RATE_RULES.signInPerIp;
    await clearOfWindowEnd(windowSeconds);
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++)
      statuses.push((await signIn("198.51.100.7", `spray${unique()}@example.test`)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    expectLimited(await signIn("198.51.100.7", `spray${unique()}@example.test`), windowSeconds);
    expect((await signIn("198.51.100.8", `spray${unique()}@example.test`)).status).toBe(401);
  });

  it(`one account from rotating addresses: ${RATE_RULES.signInPerAccount.limit} failures, then 429 for that account only`, async () => {
    const { limit, windowSeconds } = RATE_RULES.signInPerAccount;
    await clearOfWindowEnd(windowSeconds);
    const victim = await signedInUser(t);
    const other = await signedInUser(t);
    // The harness signed the victim in once: that attempt counts too.
    for (let i = 0; i < limit - 1; i++) expect((await signIn(`203.0.113.${i + 1}`, victim.email)).status).toBe(401);
    expectLimited(await signIn("203.0.113.200", victim.email), windowSeconds);
    // The account's email written differently is the same account.
    expectLimited(await signIn("203.0.113.201", `  ${victim.email.toUpperCase()} `), windowSeconds);
    expect((await signIn("203.0.113.202", other.email, other.password)).status).toBe(200);
  });
});

describe("I4: sign-up and password reset", () => {
  it(`sign-up: ${RATE_RULES.signUpPerIp.limit} an hour from one address, then 429; another address is unaffected`, async () => {
    const { limit, windowSeconds } = RATE_RULES.signUpPerIp;
    await clearOfWindowEnd(windowSeconds);
    const signUp = (ip: string) =>
      postFrom(ip, "/api/auth/sign-up/email", {
        name: "Flood",
        username: `flood_${unique()}`,
        email: `flood${unique()}@example.test`,
        password: "analytical-engine",
      });
    const first = await Promise.all(Array.from({ length: limit }, () => signUp("198.51.100.20")));
    expect(first.map((r) => r.status)).toEqual(Array(limit).fill(200));
    expectLimited(await signUp("198.51.100.20"), windowSeconds);
    expect((await signUp("198.51.100.21")).status).toBe(200);
  });

  it(`reset: ${RATE_RULES.resetPerAccount.limit} requests per email from any address (known or not alike), ${RATE_RULES.resetPerIp.limit} per address`, async () => {
    await clearOfWindowEnd(RATE_RULES.resetPerIp.windowSeconds);
    const reset = (ip: string, email: string) =>
      postFrom(ip, "/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
    const known = await signedInUser(t);
    const ghost = `ghost${unique()}@example.test`;
    for (const email of [known.email, ghost]) {
      const firsts = await Promise.all(
        Array.from({ length: RATE_RULES.resetPerAccount.limit }, (_, i) => reset(`192.0.2.${i + 10}`, email)),
      );
      expect(firsts.map((r) => r.status)).toEqual(Array(RATE_RULES.resetPerAccount.limit).fill(200));
      // A known email and an unknown one hit the limit alike: the limit tells nothing either.
      expectLimited(await reset("192.0.2.99", email), RATE_RULES.resetPerAccount.windowSeconds);
    }
    const { limit, windowSeconds } = RATE_RULES.resetPerIp;
    await clearOfWindowEnd(windowSeconds);
    const fromOne = await Promise.all(
      Array.from({ length: limit }, () => reset("192.0.2.150", `spray${unique()}@example.test`)),
    );
    expect(fromOne.map((r) => r.status)).toEqual(Array(limit).fill(200));
    expectLimited(await reset("192.0.2.150", `spray${unique()}@example.test`), windowSeconds);
    expect((await reset("192.0.2.151", `spray${unique()}@example.test`)).status).toBe(200);
  });
});

describe("I4 and S6: writing", () => {
  it(`posts: ${RATE_RULES.postCreatePerUser.limit} in ${RATE_RULES.postCreatePerUser.windowSeconds / 60} minutes per account, then 429; another account is unaffected`, async () => {
    const { limit, windowSeconds } = RATE_RULES.postCreatePerUser;
    await clearOfWindowEnd(windowSeconds);
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const c = ok(
      await http.post("/api/communities", { name: `Flood ${unique()}` }, { cookie: owner.cookie }),
      201,
    ).body;
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: other.cookie });
    for (let i = 0; i < limit; i++) {
      ok(await http.post(`/api/communities/${c.id}/posts`, { content: `Post ${i}` }, { cookie: owner.cookie }), 201);
    }
    expectLimited(
      await http.post(`/api/communities/${c.id}/posts`, { content: "One too many" }, { cookie: owner.cookie }),
      windowSeconds,
    );
    const count = await t.database.pool.query(`SELECT count(*)::int AS n FROM posts WHERE community_id = $1`, [c.id]);
    expect(count.rows[0].n).toBe(limit);
    ok(await http.post(`/api/communities/${c.id}/posts`, { content: "Still fine" }, { cookie: other.cookie }), 201);
  });

  it(`link previews: ${RATE_RULES.linkPreviewPerUser.limit} per account in ${RATE_RULES.linkPreviewPerUser.windowSeconds / 60} minutes; past that a post is made without one`, async () => {
    const { limit } = RATE_RULES.linkPreviewPerUser;
    await clearOfWindowEnd(RATE_RULES.linkPreviewPerUser.windowSeconds);
    const author = await signedInUser(t);
    const other = await signedInUser(t);
    const c = ok(
      await http.post("/api/communities", { name: `Links ${unique()}` }, { cookie: author.cookie }),
      201,
    ).body;
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: other.cookie });
    // Previews already fetched (the cache), so nothing here touches the network.
    const urls = Array.from({ length: limit + 2 }, (_, i) => `https://site${i}.example/article`);
    for (const url of urls) {
      await t.database.pool.query(`INSERT INTO link_previews (url, preview) VALUES ($1, $2)`, [
        url,
        JSON.stringify({ url, title: "A page", description: "About it", image: null }),
      ]);
    }
    const previews: (string | null)[] = [];
    for (const url of urls.slice(0, limit + 1)) {
      const res = ok(
        await http.post(`/api/communities/${c.id}/posts`, { content: `See ${url}` }, { cookie: author.cookie }),
        201,
      );
      previews.push(res.body.link_preview?.url ?? null);
    }
    expect(previews.slice(0, limit)).toEqual(urls.slice(0, limit));
    expect(previews[limit]).toBeNull();
    const fromOther = ok(
      await http.post(
        `/api/communities/${c.id}/posts`,
        { content: `See ${urls[limit + 1]}` },
        { cookie: other.cookie },
      ),
      201,
    );
    expect(fromOther.body.link_preview?.url).toBe(urls[limit + 1]);
  });

  it(`community creation: ${RATE_RULES.communityCreatePerUser.limit} an hour per account`, async () => {
    const { limit, windowSeconds } = RATE_RULES.communityCreatePerUser;
    await clearOfWindowEnd(windowSeconds);
    const u = await signedInUser(t);
    for (let i = 0; i < limit; i++)
      ok(await http.post("/api/communities", { name: `Mine ${unique()}` }, { cookie: u.cookie }), 201);
    expectLimited(
      await http.post("/api/communities", { name: `Mine ${unique()}` }, { cookie: u.cookie }),
      windowSeconds,
    );
    const other = await signedInUser(t);
    ok(await http.post("/api/communities", { name: `Theirs ${unique()}` }, { cookie: other.cookie }), 201);
  });

  it(`uploads: ${RATE_RULES.uploadsPerUser.limit} an hour per account; another account is unaffected`, async () => {
    const { limit, windowSeconds } = RATE_RULES.uploadsPerUser;
    await clearOfWindowEnd(windowSeconds);
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#888" } })
      .jpeg()
      .toBuffer();
    const spent = await signedInUser(t);
    const fresh = await signedInUser(t);
    // The hour's count as 300 uploads would have left it (uploading 300 images would take minutes).
    await t.database.pool.query(
      `INSERT INTO rate_limits (key, window_start, count)
       VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / $2::int) * $2::int), $3)`,
      [`upload:${spent.id}`, windowSeconds, limit],
    );
    const file = { name: "a.jpg", type: "image/jpeg", data: jpeg };
    expect((await upload(t, "/api/upload", spent.cookie, file)).status).toBe(429);
    expect((await upload(t, "/api/upload", fresh.cookie, file)).status).toBe(200);
  });
});
