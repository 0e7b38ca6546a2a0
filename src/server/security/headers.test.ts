/**
 * W2: the security headers on every response Hearth sends: each operation of the OpenAPI
 * document (signed in, signed out, and refused), the web app's pages and assets, uploaded media,
 * the API reference, the live event streams, and error answers (400, 401, 403, 404, 413, 415).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { connectSse } from "#server/test/sse";
import { createTestApp, ORIGIN, upload, type TestApp } from "#server/test/harness";
import { makeWorld, type World } from "./world";

const WEB_SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/index.html");

let t: TestApp;
let w: World;
let web: HearthApp;
let webDir: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  // The web app as the server serves it: the real index.html, one hashed asset, the favicon.
  webDir = mkdtempSync(path.join(os.tmpdir(), "hearth-sec-web-"));
  mkdirSync(path.join(webDir, "assets"));
  writeFileSync(path.join(webDir, "index.html"), readFileSync(WEB_SOURCE));
  writeFileSync(path.join(webDir, "assets", "index-abc123.js"), "export {};");
  writeFileSync(path.join(webDir, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(webDir, "robots.txt"), "User-agent: *\nDisallow: /api/\n");
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

type Headers = Record<string, string | string[] | number | undefined>;

/** CSP directives by name. */
export function parseCsp(value: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of String(value ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

const REFERRER_POLICIES = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];

/** What is wrong with one response's headers (empty when all is well). */
function problems(headers: Headers, opts: { inlineScriptAllowed?: boolean } = {}): string[] {
  const out: string[] = [];
  const csp = parseCsp(headers["content-security-policy"]);
  if (!headers["content-security-policy"]) out.push("no CSP");
  const src = (name: string) => csp.get(name) ?? csp.get("default-src");
  // object-src falls back to default-src; base-uri and frame-ancestors do not.
  if (src("object-src")?.join(" ") !== "'none'") out.push(`object-src ${src("object-src")}`);
  if (csp.get("base-uri")?.join(" ") !== "'none'") out.push(`base-uri ${csp.get("base-uri")}`);
  // No other site may frame a response ('self' on media: Hearth's own pages may show a file in a frame).
  const ancestors = csp.get("frame-ancestors")?.join(" ");
  if (ancestors !== "'none'" && ancestors !== "'self'") out.push(`frame-ancestors ${ancestors}`);
  const script = src("script-src") ?? [];
  if (!script.length) out.push("no script-src or default-src");
  if (script.includes("'unsafe-eval'")) out.push("script-src allows 'unsafe-eval'");
  if (!opts.inlineScriptAllowed && script.includes("'unsafe-inline'")) out.push("script-src allows 'unsafe-inline'");
  if (script.some((s) => s === "*" || s === "data:" || s === "https:" || s === "http:"))
    out.push(`script-src ${script}`);
  if (headers["x-content-type-options"] !== "nosniff") out.push(`nosniff: ${headers["x-content-type-options"]}`);
  const hsts = /max-age=(\d+)/.exec(String(headers["strict-transport-security"] ?? ""));
  if (!hsts || Number(hsts[1]) < 31536000) out.push(`HSTS: ${headers["strict-transport-security"]}`);
  if (!REFERRER_POLICIES.includes(String(headers["referrer-policy"])))
    out.push(`referrer: ${headers["referrer-policy"]}`);
  return out;
}

function fill(p: string) {
  const ids: Record<string, string> = {
    communityId: w.a.id,
    userId: w.member.id,
    inviteCode: w.a.inviteCode,
    postId: w.a.postId,
    commentId: w.a.commentId,
    courseId: w.a.courseId,
    moduleId: w.a.moduleId,
    lessonId: w.a.lessonId,
    id: "00000000-0000-4000-8000-000000000000",
    username: w.member.username,
  };
  return p.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]);
}

describe("W2: security headers", () => {
  it("are on every API operation: signed in, signed out, and refused", async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const bad: string[] = [];
    let checked = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      if (p.startsWith("/api/realtime/")) continue; // streams: their own test below
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase() as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        const url = fill(p);
        const variants =
          m === "GET"
            ? [{ cookie: w.owner.cookie }, {}]
            : // Writes: an empty body from a stranger (refused or invalid), and one from another site.
              [
                { cookie: w.outsider.cookie, origin: ORIGIN, "content-type": "application/json" },
                { cookie: w.owner.cookie, origin: "https://evil.example", "content-type": "application/json" },
              ];
        for (const headers of variants) {
          const res = await t.app.inject({
            method: m,
            url,
            headers,
            payload: m === "GET" ? undefined : "{}",
          });
          checked++;
          for (const problem of problems(res.headers)) bad.push(`${m} ${url} → ${res.statusCode}: ${problem}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(bad).toEqual([]);
  });

  it("are on error answers: 400, 401, 403, 404, 413, 415, and the auth routes", async () => {
    const cases = [
      {
        method: "PATCH",
        url: "/api/me/profile",
        headers: { origin: ORIGIN, cookie: w.member.cookie, "content-type": "application/json" },
        payload: "{bad",
        status: 400,
      },
      {
        method: "PATCH",
        url: "/api/me/profile",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: "{}",
        status: 401,
      },
      {
        method: "POST",
        url: `/api/posts/${w.a.postId}/like`,
        headers: { origin: "https://evil.example", cookie: w.member.cookie },
        status: 403,
      },
      { method: "GET", url: "/api/no-such-route", headers: {}, status: 404 },
      { method: "GET", url: "/media/no/such/file.png", headers: {}, status: 404 },
      {
        method: "PATCH",
        url: "/api/me/profile",
        headers: { origin: ORIGIN, cookie: w.member.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ bio: "x".repeat(1_100_000) }),
        status: 413,
      },
      {
        method: "PATCH",
        url: "/api/me/profile",
        headers: { cookie: w.member.cookie, "content-type": "text/plain" },
        payload: "{}",
        status: 415,
      },
      {
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: JSON.stringify({ email: w.member.email, password: "wrong-password" }),
        status: 401,
      },
      {
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: JSON.stringify({ email: w.member.email, password: w.member.password }),
        status: 200,
      },
      { method: "GET", url: "/api/auth/get-session", headers: { cookie: w.member.cookie }, status: 200 },
      { method: "GET", url: "/api/openapi.json", headers: {}, status: 200 },
      { method: "GET", url: "/api/health", headers: {}, status: 200 },
    ] as const;
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: c.headers,
        payload: "payload" in c ? c.payload : undefined,
      });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(c.status);
      expect(problems(res.headers), `${c.method} ${c.url}`).toEqual([]);
    }
  });

  it("are on the web app's pages (home, a community, /free-trial, an unknown page), its assets and robots.txt", async () => {
    for (const url of [
      "/",
      `/community/${w.a.slug}`,
      "/free-trial",
      "/no/such/page",
      "/assets/index-abc123.js",
      "/favicon.svg",
      "/robots.txt",
      "/assets/missing-x1.js",
    ]) {
      const res = await web.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(url.includes("missing") ? 404 : 200);
      expect(problems(res.headers), url).toEqual([]);
    }
  });

  it("keep the web app's own page free of inline script, so script-src 'self' is all it needs", () => {
    const html = readFileSync(WEB_SOURCE, "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it("are on uploaded media, which also get a sandbox so nothing served from /media can run script", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c2410c" } })
      .png()
      .toBuffer();
    const up = await upload(t, `/api/communities/${w.a.id}/media`, w.member.cookie, {
      name: "a.png",
      type: "image/png",
      data: png,
    });
    expect(up.status).toBe(200);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
    );
    const icon = await upload(t, `/api/communities/${w.a.id}/icon`, w.owner.cookie, {
      name: "i.svg",
      type: "image/svg+xml",
      data: svg,
    });
    expect(icon.status).toBe(200);
    const iconUrl = icon.body.icon_url ?? icon.body.url;
    for (const url of [up.body.url, up.body.thumbnail ?? up.body.url, iconUrl]) {
      const res = await t.app.inject({ method: "GET", url: String(url), headers: { cookie: w.member.cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(problems(res.headers), url).toEqual([]);
      expect(parseCsp(res.headers["content-security-policy"]).has("sandbox"), url).toBe(true);
    }
  });

  it("are on the API reference, whose bundled inline script is the one deliberate exception", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(res.statusCode).toBe(200);
    expect(problems(res.headers, { inlineScriptAllowed: true })).toEqual([]);
  });

  it("are on the live event streams (a stream takes its response over from the framework)", async () => {
    const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const streams = [
      await connectSse(`${base}/api/realtime/communities/${w.a.id}`, { cookie: w.member.cookie }),
      await connectSse(`${base}/api/realtime/notifications`, { cookie: w.member.cookie }),
      await connectSse(`${base}/api/realtime/notifications`),
    ];
    try {
      expect(streams.map((s) => s.status)).toEqual([200, 200, 401]);
      for (const s of streams) expect(problems(s.headers as Headers), String(s.status)).toEqual([]);
    } finally {
      for (const s of streams) s.close();
    }
  });
});
