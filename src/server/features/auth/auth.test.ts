import { hash as argonHash } from "@node-rs/argon2";
import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { account, verification } from "#server/db/schema/index";
import { isWeakerHash } from "#server/lib/auth";
import { api, createTestApp, firstLink, mailTo, sessionCookie, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

const unique = () => Math.random().toString(36).slice(2, 10);

async function signUp(over: Record<string, unknown> = {}) {
  const id = unique();
  const body = {
    name: "Ada Lovelace",
    username: `ada_${id}`,
    email: `ada${id}@example.test`,
    password: "analytical",
    ...over,
  };
  return { body, res: await http.post("/api/auth/sign-up/email", body) };
}

/** Follows a link from an email through the app, returning the final response of the redirect. */
async function openLink(link: string) {
  const url = new URL(link);
  return t.app.inject({ method: "GET", url: url.pathname + url.search });
}

function totp(secretBase32: string, time = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secretBase32.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 1000 / 30)));
  const h = createHmac("sha1", key).update(counter).digest();
  const o = h[h.length - 1] & 0xf;
  const code = ((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).toString().padStart(6, "0");
  return code;
}

describe("sign up", () => {
  it("creates an unconfirmed account with a lowercase username and sends a confirmation email", async () => {
    const { body, res } = await signUp({ username: "Ada_Mixed" + unique().slice(0, 4) });
    expect(res.status).toBe(200);
    expect(res.body.user.emailVerified).toBe(false);
    expect(res.body).not.toHaveProperty("token");
    expect(res.headers["set-cookie"] ?? []).not.toEqual(
      expect.arrayContaining([expect.stringContaining("session_token=")]),
    );
    const mail = await mailTo(t, body.email);
    expect(mail[0].subject).toBe("Confirm your email for Hearth");
    const signIn = await http.post("/api/auth/sign-in/email", { email: body.email, password: body.password });
    expect(signIn.status).toBe(403);
    expect(signIn.body.error.code).toBe("EMAIL_NOT_VERIFIED");
    expect(signIn.body.error.message).toBe(MSG.emailNotConfirmed);
    const [{ username }] = (
      await t.database.db.execute<{ username: string }>(
        sql`SELECT p.username FROM user_profiles p JOIN "user" u ON u.id = p.user_id WHERE u.email = ${body.email}`,
      )
    ).rows;
    expect(username).toBe(String(body.username).toLowerCase());
  });

  it("confirms through the emailed link, signs in and lands on /", async () => {
    const { body } = await signUp();
    const link = firstLink((await mailTo(t, body.email))[0].text);
    const res = await openLink(link);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const cookie = sessionCookie(res.headers);
    const me = await http.get("/api/me", { cookie });
    expect(me.body.user.email).toBe(body.email);
    expect(me.body.user.email_verified).toBe(true);
    expect(me.body.profile.full_name).toBe("Ada Lovelace");
  });

  it("keeps a chosen username of the full 30 characters", async () => {
    const username = `u${unique()}`.padEnd(30, "x");
    const { body, res } = await signUp({ username });
    expect(res.status).toBe(200);
    const rows = (
      await t.database.db.execute<{ username: string }>(
        sql`SELECT p.username FROM user_profiles p JOIN "user" u ON u.id = p.user_id WHERE u.email = ${body.email}`,
      )
    ).rows;
    expect(rows[0].username).toBe(username);
  });

  it("refuses a taken username with the spec's message, case-insensitively", async () => {
    const { body } = await signUp();
    const again = await signUp({ username: String(body.username).toUpperCase() });
    expect(again.res.status).toBe(400);
    expect(again.res.body.error.message).toBe(MSG.usernameTaken);
  });

  it.each([
    [{ username: "ab" }, MSG.usernameInvalid],
    [{ username: "has space" }, MSG.usernameInvalid],
    [{ username: "x".repeat(31) }, MSG.usernameInvalid],
    [{ password: "12345" }, MSG.passwordTooShort],
  ])("validates %j", async (over, message) => {
    const { res } = await signUp(over);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });

  it("answers an existing email exactly like a new one, and tells the owner by email", async () => {
    const first = await signUp();
    const fresh = await signUp();
    const dup = await signUp({ email: first.body.email });
    expect(dup.res.status).toBe(fresh.res.status);
    expect(Object.keys(dup.res.body).sort()).toEqual(Object.keys(fresh.res.body).sort());
    expect(Object.keys(dup.res.body.user).sort()).toEqual(Object.keys(fresh.res.body.user).sort());
    const mail = await mailTo(t, String(first.body.email));
    expect(mail[0].subject).toBe("Someone tried to sign up with your email");
  });
});

describe("sign in and sessions", () => {
  it("signs in, restores the session from the cookie, and signs out for good", async () => {
    const u = await signedInUser(t);
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user.email).toBe(u.email);
    const out = await http.post("/api/auth/sign-out", {}, { cookie: u.cookie });
    expect(out.status).toBe(200);
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user).toBeNull();
  });

  it("sets an HttpOnly SameSite=Lax session cookie and never returns the token in the body", async () => {
    const u = await signedInUser(t);
    const res = await http.post("/api/auth/sign-in/email", { email: u.email, password: u.password });
    expect(res.body).not.toHaveProperty("token");
    const cookie = ([] as string[])
      .concat(res.headers["set-cookie"] as string[])
      .find((c) => c.includes("session_token="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("gives one answer for an unknown email and a wrong password", async () => {
    const u = await signedInUser(t);
    const wrong = await http.post("/api/auth/sign-in/email", { email: u.email, password: "not-the-password" });
    const unknown = await http.post("/api/auth/sign-in/email", {
      email: `nobody${unique()}@example.test`,
      password: "whatever1",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it("issues a new session id at each sign-in (no fixation)", async () => {
    const u = await signedInUser(t);
    const planted = "hearth.session_token=planted-value";
    const res = await http.post(
      "/api/auth/sign-in/email",
      { email: u.email, password: u.password },
      { cookie: planted },
    );
    expect(sessionCookie(res.headers)).not.toBe(planted);
    expect(sessionCookie(res.headers)).not.toBe(u.cookie);
  });

  it("stores passwords as argon2id with OWASP's minimum cost", async () => {
    const u = await signedInUser(t);
    const [row] = await t.database.db
      .select({ password: account.password })
      .from(account)
      .where(eq(account.userId, u.id));
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("hashes a password again at sign-in when its stored hash is weaker than today's, and only then", async () => {
    const u = await signedInUser(t);
    const stored = async () =>
      (await t.database.db.select({ password: account.password }).from(account).where(eq(account.userId, u.id)))[0]
        .password!;
    const signIn = (password: string) => http.post("/api/auth/sign-in/email", { email: u.email, password });
    for (const weak of [
      await argonHash(u.password, { memoryCost: 4096, timeCost: 1, parallelism: 1, algorithm: 2 }),
      await argonHash(u.password, { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 1 }), // argon2i
    ]) {
      await t.database.db.update(account).set({ password: weak }).where(eq(account.userId, u.id));
      // A wrong password changes nothing.
      expect((await signIn("not-the-password")).status).toBe(401);
      expect(await stored()).toBe(weak);
      expect((await signIn(u.password)).status).toBe(200);
      const upgraded = await stored();
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      // A hash as strong as today's is kept as it is.
      expect((await signIn(u.password)).status).toBe(200);
      expect(await stored()).toBe(upgraded);
    }
    expect(isWeakerHash(await stored())).toBe(false);
    expect(isWeakerHash("$2b$10$abcdefghijklmnopqrstuv")).toBe(true);
    expect(isWeakerHash("$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")).toBe(false);
  });
});

describe("password reset", () => {
  async function requestReset(email: string) {
    const res = await http.post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
    expect(res.status).toBe(200);
    return res;
  }
  async function tokenFromMail(email: string) {
    const link = firstLink((await mailTo(t, email)).find((m) => m.subject === "Reset your Hearth password")!.text);
    const res = await openLink(link);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location), "http://x");
    expect(location.pathname).toBe("/reset-password");
    return location.searchParams.get("token")!;
  }

  it("answers the same for an unknown email", async () => {
    const u = await signedInUser(t);
    const known = await requestReset(u.email);
    const unknown = await requestReset(`ghost${unique()}@example.test`);
    expect(unknown.body).toEqual(known.body);
  });

  it("resets with the emailed token once, ends every session, and the old password stops working", async () => {
    const u = await signedInUser(t);
    await requestReset(u.email);
    const token = await tokenFromMail(u.email);
    // Stored hashed: the token from the email is nowhere in the table.
    const stored = await t.database.db.select().from(verification);
    expect(JSON.stringify(stored)).not.toContain(token);

    const ok = await http.post("/api/auth/reset-password", { newPassword: "brand-new-pass", token });
    expect(ok.status).toBe(200);
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user).toBeNull();
    const reuse = await http.post("/api/auth/reset-password", { newPassword: "another-pass", token });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.message).toBe(MSG.invalidResetLink);
    expect((await http.post("/api/auth/sign-in/email", { email: u.email, password: u.password })).status).toBe(401);
    expect((await http.post("/api/auth/sign-in/email", { email: u.email, password: "brand-new-pass" })).status).toBe(
      200,
    );
  });

  it("revokes an older token when a newer one is issued", async () => {
    const u = await signedInUser(t);
    await requestReset(u.email);
    const older = await tokenFromMail(u.email);
    await requestReset(u.email);
    const newer = await tokenFromMail(u.email);
    expect(newer).not.toBe(older);
    const res = await http.post("/api/auth/reset-password", { newPassword: "brand-new-pass", token: older });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(MSG.invalidResetLink);
    const newerRes = await http.post("/api/auth/reset-password", { newPassword: "brand-new-pass2", token: newer });
    expect(newerRes.status).toBe(200);
  });

  it("refuses a made-up token and a short password with the spec's messages", async () => {
    const bad = await http.post("/api/auth/reset-password", { newPassword: "long-enough", token: "made-up-token" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MSG.invalidResetLink);
    const u = await signedInUser(t);
    await requestReset(u.email);
    const token = await tokenFromMail(u.email);
    const short = await http.post("/api/auth/reset-password", { newPassword: "12345", token });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe(MSG.passwordTooShort);
  });
});

describe("change password", () => {
  it("says 'Current password is incorrect' on a wrong current password", async () => {
    const u = await signedInUser(t);
    const res = await http.post(
      "/api/auth/change-password",
      { currentPassword: "wrong-one", newPassword: "another-one" },
      { cookie: u.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(MSG.currentPasswordIncorrect);
  });

  it("changes the password and ends the user's other sessions, keeping this one", async () => {
    const u = await signedInUser(t);
    const other = sessionCookie(
      (await http.post("/api/auth/sign-in/email", { email: u.email, password: u.password })).headers,
    );
    const res = await http.post(
      "/api/auth/change-password",
      { currentPassword: u.password, newPassword: "another-one", revokeOtherSessions: false },
      { cookie: u.cookie },
    );
    expect(res.status).toBe(200);
    const current = res.headers["set-cookie"] ? sessionCookie(res.headers) : u.cookie;
    expect((await http.get("/api/me", { cookie: current })).body.user?.email).toBe(u.email);
    expect((await http.get("/api/me", { cookie: other })).body.user).toBeNull();
  });
});

describe("two-step sign-in (TOTP)", () => {
  it("enables with a confirming code, then requires a code (or a backup code) to sign in, and disables", async () => {
    const u = await signedInUser(t);
    const enable = await http.post("/api/auth/two-factor/enable", { password: u.password }, { cookie: u.cookie });
    expect(enable.status).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const backupCodes: string[] = enable.body.backupCodes;
    expect(backupCodes.length).toBeGreaterThanOrEqual(5);

    let factors = await http.get("/api/me/factors", { cookie: u.cookie });
    expect(factors.body.factors).toEqual([expect.objectContaining({ factor_type: "totp", status: "unverified" })]);

    const wrong = await http.post("/api/auth/two-factor/verify-totp", { code: "000000" }, { cookie: u.cookie });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    const verify = await http.post("/api/auth/two-factor/verify-totp", { code: totp(secret) }, { cookie: u.cookie });
    expect(verify.status).toBe(200);
    // Confirming the factor may rotate the session.
    const afterVerify = verify.headers["set-cookie"] ? sessionCookie(verify.headers) : u.cookie;
    expect(
      (await http.put("/api/me/factors/totp", { friendly_name: "My phone" }, { cookie: afterVerify })).status,
    ).toBe(200);
    factors = await http.get("/api/me/factors", { cookie: afterVerify });
    expect(factors.body.factors).toEqual([
      { friendly_name: "My phone", factor_type: "totp", status: "verified", created_at: expect.any(String) },
    ]);

    // Password alone is not enough now.
    const step1 = await http.post("/api/auth/sign-in/email", { email: u.email, password: u.password });
    expect(step1.status).toBe(200);
    expect(step1.body.twoFactorRedirect).toBe(true);
    expect(() => sessionCookie(step1.headers)).toThrow();
    const pending = ([] as string[])
      .concat((step1.headers["set-cookie"] as string[]) ?? [])
      .map((c) => c.split(";")[0])
      .join("; ");
    const step2 = await http.post(
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[0] },
      { cookie: pending },
    );
    expect(step2.status).toBe(200);
    const cookie = sessionCookie(step2.headers);
    expect((await http.get("/api/me", { cookie })).body.user.two_factor_enabled).toBe(true);

    const disable = await http.post("/api/auth/two-factor/disable", { password: u.password }, { cookie });
    expect(disable.status).toBe(200);
    const plain = await http.post("/api/auth/sign-in/email", { email: u.email, password: u.password });
    expect(plain.body.twoFactorRedirect).toBeUndefined();
    expect(sessionCookie(plain.headers)).toBeTruthy();
  });
});

describe("rate limits", () => {
  it("limits sign-in attempts per account and per IP with a 429 and Retry-After", async () => {
    const limited = await createTestApp({ rateLimits: true });
    try {
      const h = api(limited.app);
      const email = `target${unique()}@example.test`;
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        statuses.push((await h.post("/api/auth/sign-in/email", { email, password: `guess-${i}` })).status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      const blocked = await h.post("/api/auth/sign-in/email", { email, password: "guess" });
      expect(blocked.status).toBe(429);
      expect(blocked.headers["retry-after"]).toBeTruthy();
      expect(blocked.body.error.code).toBe("RATE_LIMITED");
      // Another account from the same IP is still allowed (until the per-IP limit).
      expect(
        (await h.post("/api/auth/sign-in/email", { email: `other${unique()}@example.test`, password: "x1234567" }))
          .status,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe("session lookup", () => {
  it("refuses a cookie whose signature does not match, and a session past its expiry", async () => {
    const u = await signedInUser(t);
    const [name, value] = u.cookie.split("=");
    const token = decodeURIComponent(value).split(".")[0];
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32).toString("base64")}`)}`;
    expect((await http.get("/api/me", { cookie: forged })).body.user).toBeNull();
    expect((await http.get("/api/me", { cookie: `${name}=${token}` })).body.user).toBeNull();
    await t.database.db.execute(
      sql`UPDATE session SET expires_at = now() - interval '1 second' WHERE token = ${token}`,
    );
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user).toBeNull();
  });

  it("extends a session that is due for its refresh (sliding expiry)", async () => {
    const u = await signedInUser(t);
    const token = decodeURIComponent(u.cookie.split("=")[1]).split(".")[0];
    await t.database.db.execute(
      sql`UPDATE session SET updated_at = now() - interval '2 days', expires_at = now() + interval '28 days' WHERE token = ${token}`,
    );
    expect((await http.get("/api/me", { cookie: u.cookie })).body.user.email).toBe(u.email);
    const [row] = (
      await t.database.db.execute<{ days: number }>(
        sql`SELECT extract(epoch FROM expires_at - now()) / 86400 AS days FROM session WHERE token = ${token}`,
      )
    ).rows;
    expect(Number(row.days)).toBeGreaterThan(29);
  });
});
