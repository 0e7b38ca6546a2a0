/**
 * W4: open redirects. Every redirect target Hearth honours — Better Auth's callbackURL,
 * redirectTo, errorCallbackURL and newUserCallbackURL on sign-in, sign-up, reset, email
 * confirmation and Google sign-in (in bodies and in emailed links), the web app's ?redirect=
 * after sign-in (shared/safe-redirect), and the server's own page and file routes — must never
 * send a browser to another origin.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeRedirectPath } from "#shared/safe-redirect";
import { buildApp, type HearthApp } from "#server/app";
import { api, createTestApp, firstLink, mailTo, ORIGIN, signedInUser, type TestApp } from "#server/test/harness";

const HOSTILE = [
  "//evil.com",
  "/\\evil.com",
  "\\\\evil.com",
  "https:evil.com",
  "%2F%2Fevil.com",
  "/%2F%2Fevil.com",
  "/%5Cevil.com",
  "https://evil.com",
  "https://evil.com/reset-password",
  "http://localhost:3000.evil.com/",
  "http://localhost:3000@evil.com/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "/.//evil.com",
  "/..//evil.com",
  "/%2e%2e//evil.com",
  "///evil.com",
  "/\t/evil.com",
  "/%09/evil.com",
  "evil.com",
];

let t: TestApp;
let http: ReturnType<typeof api>;
let web: HearthApp;
let webDir: string;
beforeAll(async () => {
  t = await createTestApp({ google: { clientId: "client.apps.example", clientSecret: "secret" } });
  http = api(t.app);
  webDir = mkdtempSync(path.join(os.tmpdir(), "hearth-sec-redirect-"));
  mkdirSync(path.join(webDir, "assets"));
  writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Hearth</title>");
  writeFileSync(path.join(webDir, "assets", "app-1.js"), "export {};");
  web = await buildApp({
    config: { ...t.config, serveWeb: true },
    database: t.database,
    logger: false,
    startWorker: false,
    webDist: webDir,
  });
});
afterAll(async () => {
  await web?.close();
  rmSync(webDir, { recursive: true, force: true });
  await t.close();
});

/** Where a response would send the browser, resolved against the site; null when nowhere. */
function destination(headers: Record<string, unknown>): URL | null {
  const location = headers.location;
  return typeof location === "string" ? new URL(location, t.config.publicUrl) : null;
}
const own = new URL(ORIGIN);

const unique = () => Math.random().toString(36).slice(2, 10);

describe("W4: the web app's redirect after sign-in (shared/safe-redirect)", () => {
  it.each(HOSTILE)("%j stays on the site", (target) => {
    const out = safeRedirectPath(target);
    expect(out.startsWith("/")).toBe(true);
    expect(out.startsWith("//")).toBe(false);
    expect(new URL(out, own).origin).toBe(own.origin);
  });

  it("sends every cross-origin form home, and keeps same-site paths such as /web/%2Fevil as paths", () => {
    for (const target of HOSTILE) expect(safeRedirectPath(target), target).toBe("/");
    expect(safeRedirectPath("/web/%2Fevil")).toBe("/web/%2Fevil");
    expect(new URL(safeRedirectPath("/web/%2Fevil"), own).href).toBe(`${own.origin}/web/%2Fevil`);
  });
});

describe("W4: Better Auth's redirect parameters", () => {
  const bodies: [string, (target: string) => Record<string, unknown>][] = [
    ["/api/auth/sign-in/email", (c) => ({ email: "someone@example.test", password: "whatever-1", callbackURL: c })],
    [
      "/api/auth/sign-up/email",
      (c) => ({
        name: "R",
        username: `r_${unique()}`,
        email: `r${unique()}@example.test`,
        password: "analytical",
        callbackURL: c,
      }),
    ],
    ["/api/auth/request-password-reset", (c) => ({ email: "someone@example.test", redirectTo: c })],
    ["/api/auth/send-verification-email", (c) => ({ email: "someone@example.test", callbackURL: c })],
    ["/api/auth/sign-in/social", (c) => ({ provider: "google", callbackURL: c })],
    ["/api/auth/sign-in/social", (c) => ({ provider: "google", callbackURL: "/", errorCallbackURL: c })],
    ["/api/auth/sign-in/social", (c) => ({ provider: "google", callbackURL: "/", newUserCallbackURL: c })],
  ];

  it("are refused (403) in every request body, before anything is done or any Location is sent", async () => {
    const accepted: string[] = [];
    const users = (await t.database.pool.query(`SELECT count(*)::int AS n FROM "user"`)).rows[0].n;
    for (const [url, body] of bodies) {
      for (const target of HOSTILE) {
        const res = await http.post(url, body(target));
        if (res.status !== 403 || res.headers.location)
          accepted.push(`${url} ${JSON.stringify(body(target))}: ${res.status}`);
      }
    }
    expect(accepted).toEqual([]);
    // No sign-up went through on the way.
    expect((await t.database.pool.query(`SELECT count(*)::int AS n FROM "user"`)).rows[0].n).toBe(users);
  });

  it("are refused in the emailed links (confirmation and reset), which otherwise redirect on the site", async () => {
    // A genuine sign-up and reset, with same-site targets.
    const email = `links${unique()}@example.test`;
    const up = await http.post("/api/auth/sign-up/email", {
      name: "Links",
      username: `links_${unique()}`,
      email,
      password: "analytical",
      callbackURL: "/signup/pricing",
    });
    expect(up.status).toBe(200);
    const confirm = new URL(firstLink((await mailTo(t, email))[0].text));
    const u = await signedInUser(t);
    expect(
      (await http.post("/api/auth/request-password-reset", { email: u.email, redirectTo: "/reset-password" })).status,
    ).toBe(200);
    const reset = new URL(firstLink((await mailTo(t, u.email)).find((m) => m.subject.includes("Reset"))!.text));

    for (const link of [confirm, reset]) {
      for (const target of HOSTILE) {
        const tampered = new URL(link);
        tampered.searchParams.set("callbackURL", target);
        const res = await t.app.inject({ method: "GET", url: tampered.pathname + tampered.search });
        expect(res.statusCode, `${tampered.pathname} ${target}`).toBe(403);
        expect(res.headers.location).toBeUndefined();
      }
    }
    // The untouched links still work, and lead to this site only.
    const confirmed = await t.app.inject({ method: "GET", url: confirm.pathname + confirm.search });
    expect(confirmed.statusCode).toBe(302);
    expect(destination(confirmed.headers)!.origin).toBe(own.origin);
    expect(destination(confirmed.headers)!.pathname).toBe("/signup/pricing");
    const opened = await t.app.inject({ method: "GET", url: reset.pathname + reset.search });
    expect(opened.statusCode).toBe(302);
    expect(destination(opened.headers)!.origin).toBe(own.origin);
    expect(destination(opened.headers)!.pathname).toBe("/reset-password");
  });

  it("a failed email confirmation goes back to this site, not to a target from the link", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/verify-email?token=forged&callbackURL=%2F" });
    const to = destination(res.headers);
    if (to) expect(to.origin).toBe(own.origin);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe("W4: the server's own routes never redirect off-site", () => {
  const PATHS = [
    "//evil.com",
    "//evil.com/",
    "//evil.com/%2e%2e",
    "/%2F%2Fevil.com",
    "/%2F%2Fevil.com/",
    "/%5Cevil.com",
    "/%5C%5Cevil.com/",
    "/\\evil.com",
    "/assets//evil.com",
    "/assets/%2F%2Fevil.com",
    "/assets/..%2F..%2Fevil.com",
    "/media//evil.com",
    "/community/x/..//evil.com",
    "/api/auth/%2F%2Fevil.com",
  ];
  it.each(PATHS)("GET %s", async (url) => {
    for (const app of [web, t.app]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBeLessThan(500);
      const to = destination(res.headers);
      if (to) expect(to.origin, `${url} → ${res.headers.location}`).toBe(own.origin);
    }
  });
});
