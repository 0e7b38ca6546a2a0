/**
 * I7 (session fixation, logout) and I8 (cookie flags), the second in the production
 * configuration: a public https URL, which is what turns on secure cookies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfirmedUser } from "#server/seed/seed";
import { connectSse } from "#server/test/sse";
import { api, createTestApp, sessionCookie, signedInUser, type TestApp } from "#server/test/harness";

const PROD_ORIGIN = "https://hearth.example";
let t: TestApp;
let prod: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  [t, prod] = await Promise.all([createTestApp(), createTestApp({ publicUrl: PROD_ORIGIN })]);
  http = api(t.app);
});
afterAll(async () => {
  await Promise.all([t.close(), prod.close()]);
});

const signIn = (app: TestApp, email: string, password: string, cookie?: string) =>
  api(app.app).post(
    "/api/auth/sign-in/email",
    { email, password },
    { ...(cookie ? { cookie } : {}), ...(app === prod ? { headers: { origin: PROD_ORIGIN } } : {}) },
  );

/** A confirmed account on the production-configured app (its pages live on PROD_ORIGIN). */
async function prodUser() {
  const email = `prod${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  const password = "correct-horse-1";
  const id = await createConfirmedUser(prod.database.db, {
    email,
    name: "Prod",
    username: `prod_${Math.random().toString(36).slice(2, 10)}`,
    password,
  });
  return { id, email, password };
}

const sessionRows = async (userId: string) =>
  (await t.database.pool.query(`SELECT token FROM session WHERE user_id = $1`, [userId])).rows as { token: string }[];

describe("I7: session fixation", () => {
  it("signing in with an attacker's planted session cookie gives the victim a new session; the planted one stays the attacker's", async () => {
    const attacker = await signedInUser(t, { name: "Attacker" });
    const victim = await signedInUser(t, { name: "Victim" });
    const res = await signIn(t, victim.email, victim.password, attacker.cookie);
    expect(res.status).toBe(200);
    const issued = sessionCookie(res.headers);
    expect(issued).not.toBe(attacker.cookie);
    expect((await http.get("/api/me", { cookie: issued })).body.user.id).toBe(victim.id);
    // The planted cookie was not promoted to the victim's account.
    expect((await http.get("/api/me", { cookie: attacker.cookie })).body.user.id).toBe(attacker.id);
  });

  it("a made-up or unsigned token is never adopted as a session id", async () => {
    const victim = await signedInUser(t);
    const [{ token }] = await sessionRows(victim.id);
    for (const planted of ["hearth.session_token=chosen-by-attacker", `hearth.session_token=${token}`]) {
      const res = await signIn(t, victim.email, victim.password, planted);
      expect(res.status).toBe(200);
      const issued = sessionCookie(res.headers).split("=")[1].split(".")[0];
      expect(issued).not.toBe(planted.split("=")[1]);
      // A raw token without its signature opens nothing.
      expect((await http.get("/api/me", { cookie: planted })).body.user).toBeNull();
    }
  });
});

describe("I7: a session kept in memory still needs its signature", () => {
  it("a cookie with the kept session's token and another signature is refused, however often it is sent", async () => {
    const u = await signedInUser(t);
    // Kept in this process by the first read.
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user.id).toBe(u.id);
    const [name, value] = u.cookie.split("=");
    const dot = decodeURIComponent(value).lastIndexOf(".");
    const token = decodeURIComponent(value).slice(0, dot);
    const forged = [
      `${token}.${Buffer.alloc(32, 1).toString("base64")}`,
      `${token}.`,
      `${token}.${decodeURIComponent(value).slice(dot + 1, -2)}`,
    ];
    for (const f of forged) {
      for (let i = 0; i < 2; i++) {
        expect((await http.get("/api/me", { cookie: `${name}=${encodeURIComponent(f)}` })).body.user).toBeNull();
      }
    }
    // The real cookie still works, before and after the forgeries.
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user.id).toBe(u.id);
  });
});

describe("I7: signing out", () => {
  it("kills the session on the server: the old cookie is refused by reads, writes and the live streams", async () => {
    const u = await signedInUser(t);
    const extra = sessionCookie((await signIn(t, u.email, u.password)).headers);
    expect(await sessionRows(u.id)).toHaveLength(2);
    expect((await http.post("/api/auth/sign-out", {}, { cookie: u.cookie })).status).toBe(200);
    // Replaying the old cookie (the back button, a copied cookie) finds nothing.
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user).toBeNull();
    expect((await http.get("/api/auth/get-session", { cookie: u.cookie })).body).toBeNull();
    expect((await http.patch("/api/me/profile", { bio: "after sign-out" }, { cookie: u.cookie })).status).toBe(401);
    expect((await http.get("/api/notifications", { cookie: u.cookie })).status).toBe(401);
    const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const stream = await connectSse(`${base}/api/realtime/notifications`, { cookie: u.cookie });
    expect(stream.status).toBe(401);
    stream.close();
    // Only that session ended: the other device is still signed in.
    expect(await sessionRows(u.id)).toHaveLength(1);
    expect((await http.get("/api/me", { cookie: extra })).body.user.id).toBe(u.id);
    // Signing out again with the dead cookie changes nothing and fails cleanly.
    const again = await http.post("/api/auth/sign-out", {}, { cookie: u.cookie });
    expect(again.status).toBeLessThan(500);
    expect((await http.get("/api/me", { cookie: extra })).body.user.id).toBe(u.id);
  });

  it("the sign-out answer clears the cookie in the browser", async () => {
    const u = await signedInUser(t);
    const res = await http.post("/api/auth/sign-out", {}, { cookie: u.cookie });
    const cleared = ([] as string[])
      .concat((res.headers["set-cookie"] as string[] | string | undefined) ?? [])
      .find((c) => c.startsWith("hearth.session_token="));
    expect(cleared).toMatch(/^hearth\.session_token=;/);
    expect(cleared).toMatch(/Max-Age=0/i);
  });
});

describe("I8: cookies in the production configuration", () => {
  it("the session cookie is __Secure-, Secure, HttpOnly, SameSite=Lax, Path=/ and host-only (no Domain)", async () => {
    const u = await prodUser();
    const res = await signIn(prod, u.email, u.password);
    expect(res.status).toBe(200);
    const cookies = ([] as string[]).concat(res.headers["set-cookie"] as string[]);
    expect(cookies.length).toBeGreaterThan(0);
    const session = cookies.find((c) => c.startsWith("__Secure-hearth.session_token="));
    expect(session, JSON.stringify(cookies)).toBeDefined();
    for (const c of cookies) {
      const attrs = c.split(";").map((a) => a.trim().toLowerCase());
      expect(attrs, c).toContain("secure");
      expect(attrs, c).toContain("httponly");
      expect(attrs, c).toContain("samesite=lax");
      expect(attrs, c).toContain("path=/");
      expect(
        attrs.some((a) => a.startsWith("domain=")),
        c,
      ).toBe(false);
    }
    // The cookie works under its secure name.
    const cookie = session!.split(";")[0];
    expect((await api(prod.app).get("/api/me", { cookie })).body.user.id).toBe(u.id);
  });

  it("the API ignores the session token under the plain name, which an http page or another subdomain could set", async () => {
    const u = await prodUser();
    const res = await signIn(prod, u.email, u.password);
    const secure = ([] as string[])
      .concat(res.headers["set-cookie"] as string[])
      .find((c) => c.startsWith("__Secure-hearth.session_token="))!
      .split(";")[0];
    const plain = secure.replace("__Secure-", "");
    expect((await api(prod.app).get("/api/me", { cookie: plain })).body.user).toBeNull();
    expect(
      (
        await api(prod.app).patch(
          "/api/me/profile",
          { bio: "tossed" },
          { cookie: plain, headers: { origin: PROD_ORIGIN } },
        )
      ).status,
    ).toBe(401);
  });

  it("HSTS is a year with includeSubDomains", async () => {
    const res = await api(prod.app).get("/api/health");
    const hsts = String(res.headers["strict-transport-security"]);
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31536000);
    expect(hsts).toContain("includeSubDomains");
  });
});
