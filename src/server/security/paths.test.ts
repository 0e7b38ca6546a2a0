/**
 * One spelling of every path. A request's path can be written many ways that the router, Better
 * Auth or a browser read as the same route: "/%61pi/x" (an escaped letter), "/api/./x",
 * "/api/%2e/x", "/api/y/../x", "/api//x". Every decision (authorization, CSRF, rate limits, the
 * auth answer-time floor, forced session revocation) must be the one the canonical path gets.
 * Also here: which answers say they depend on the session (Cache-Control, Vary), and bodies nested
 * too deeply to serialize.
 *
 * Spelled paths go over a real socket: inject() parses its URL with WHATWG URL, which resolves dot
 * segments before the app sees them, so a test through it could not fail.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS_BY_PATH, UNIFORM_ANSWER_MS } from "#server/features/auth/auth.routes";
import { api, createTestApp, ORIGIN, sessionCookie, signedInUser, upload, type TestApp } from "#server/test/harness";
import { databaseFingerprint, makeWorld, ok, type World } from "./world";

const pngBytes = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#c2410c" } })
    .png()
    .toBuffer();
import sharp from "sharp";

let t: TestApp;
let w: World;
const agent = new http.Agent({ keepAlive: true });
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  w = await makeWorld(t);
  // Community B is private: its reads are what an outsider must not get by any spelling.
  await t.database.pool.query(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [w.b.id]);
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request exactly as written, over a socket to the listening app. */
function send(
  app: TestApp,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  payload?: string | Buffer,
): Promise<Answer> {
  const { port } = app.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload !== undefined ? { "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const EVIL = "https://evil.example";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** "/api/communities/…" as "/%61pi/%63ommunities/…": the router decodes escaped letters. */
function escaped(url: string): string {
  return url.replace(/^\/api\/(\w)/, (_m, c: string) => `/%61pi/%${c.charCodeAt(0).toString(16)}`);
}

/** "/api/…" as "/api/./z/%2e%2e/…": dot segments, plain and escaped, that resolve to the same path. */
function dotted(url: string): string {
  return url.replace(/^\/api\//, "/api/./z/%2e%2e/");
}

const SPELLINGS = [
  { label: "escaped", spell: escaped },
  { label: "dot segments", spell: dotted },
];

/** Every operation of the OpenAPI document, with real identifiers of community A (reads of B). */
function operations(): { method: Method; path: string }[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .map((m) => m.toUpperCase() as Method)
      .filter((m) => ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(m))
      .map((method) => ({ method, path })),
  );
}

function fill(path: string, space = w.a): string {
  const real: Record<string, string> = {
    communityId: space.id,
    userId: w.member.id,
    inviteCode: space.inviteCode,
    postId: space.postId,
    commentId: space.commentId,
    courseId: space.courseId,
    moduleId: space.moduleId,
    lessonId: space.lessonId,
    id: randomUUID(),
    username: w.member.username,
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(real[name] ?? "x"));
}

async function status(method: Method, url: string, headers: Record<string, string>, payload?: string) {
  return (await send(t, method, url, headers, payload)).status;
}

describe("every route of the OpenAPI document, spelled with an escape or with dot segments", () => {
  it("the spellings resolve to the canonical path (they are not all 404s)", () => {
    expect(escaped("/api/communities/1")).toBe("/%61pi/%63ommunities/1");
    expect(dotted("/api/communities/1")).toBe("/api/./z/%2e%2e/communities/1");
  });

  it("gets the authorization decision of its canonical path: anonymous, and an outsider reading a private community", async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(80);
    const differences: string[] = [];
    let notFound = 0;
    for (const op of ops) {
      // An event stream that is granted never ends: streams are tried only where they must be refused.
      const stream = op.path.startsWith("/api/realtime/");
      const scenarios = [
        ...(stream
          ? []
          : [{ who: "anonymous", url: fill(op.path), headers: { origin: ORIGIN } as Record<string, string> }]),
        ...(op.method === "GET" && (!stream || op.path.includes("{communityId}"))
          ? [{ who: "outsider on private B", url: fill(op.path, w.b), headers: { cookie: w.outsider.cookie } }]
          : []),
      ];
      for (const s of scenarios) {
        const headers = op.method === "GET" ? s.headers : { ...s.headers, "content-type": "application/json" };
        const payload = op.method === "GET" ? undefined : "{}";
        const canonical = await status(op.method, s.url, headers, payload);
        for (const { label, spell } of SPELLINGS) {
          const got = await status(op.method, spell(s.url), headers, payload);
          if (got !== canonical)
            differences.push(`${op.method} ${op.path} (${s.who}, ${label}): ${got}, canonical ${canonical}`);
          if (got === 404 && canonical === 404) notFound++;
        }
      }
    }
    expect(differences).toEqual([]);
    // Most answers are 401s and 403s, not a router that found nothing for either spelling.
    expect(notFound).toBeLessThan(ops.length / 2);
  }, 180_000);

  it("gets the CSRF decision of its canonical path: a cross-site form post with the owner's cookie is refused and changes nothing", async () => {
    const before = await databaseFingerprint(t);
    const accepted: string[] = [];
    // The routes that take a signed token or body instead of the session accept cross-site posts.
    const crossSite = ["/api/notifications/unsubscribe", "/api/payments/webhook"];
    const writes = operations().filter((o) => o.method !== "GET" && !crossSite.includes(o.path));
    for (const op of writes) {
      const url = fill(op.path);
      for (const { label, spell } of SPELLINGS) {
        const got = await status(
          op.method,
          spell(url),
          { cookie: w.owner.cookie, origin: EVIL, "content-type": "text/plain" },
          JSON.stringify({ content: "forged", name: "Forged" }),
        );
        if (got !== 403) accepted.push(`${op.method} ${op.path} (${label}): ${got}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(await databaseFingerprint(t)).toEqual(before);
  });

  it("refuses the two forgeries found by hand: an escaped join and an escaped avatar upload", async () => {
    const stranger = await signedInUser(t);
    const join = await send(
      t,
      "POST",
      `/%61pi/communities/${w.a.id}/join`,
      { cookie: stranger.cookie, origin: EVIL, "content-type": "text/plain" },
      "{}",
    );
    expect(join.status).toBe(403);
    const members = await t.database.pool.query(
      `SELECT 1 FROM community_members WHERE community_id = $1 AND user_id = $2`,
      [w.a.id, stranger.id],
    );
    expect(members.rowCount).toBe(0);

    const boundary = "----forged";
    const avatar = await send(
      t,
      "POST",
      "/%61pi/me/avatar",
      { cookie: stranger.cookie, origin: EVIL, "content-type": `multipart/form-data; boundary=${boundary}` },
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        await pngBytes(64, 64),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    );
    expect(avatar.status).toBe(403);
    const me = await api(t.app).get("/api/me", { cookie: stranger.cookie });
    expect(me.body.profile?.avatar_url ?? null).toBeNull();
    // The same upload from the site itself works, so the refusal is the CSRF guard's.
    const own = await upload(t, "/%61pi/me/avatar", stranger.cookie, {
      name: "a.png",
      type: "image/png",
      data: await pngBytes(64, 64),
    });
    expect(own.status).toBe(200);
  });
});

describe("Better Auth's routes under every spelling", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ rateLimits: true });
    await limited.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => limited.close());

  const AUTH_SPELLINGS = [
    (p: string) => `/api/auth/.${p}`,
    (p: string) => `/api/auth/%2e${p}`,
    (p: string) => `/api/auth/x/..${p}`,
    (p: string) => `/api/auth/%2E%2e/auth${p}`,
    (p: string) => `/%61pi/auth${p}`,
    (p: string) => `/api//auth${p}`,
  ];

  const post = (app: TestApp, url: string, body: unknown, cookie?: string) =>
    send(
      app,
      "POST",
      url,
      { origin: ORIGIN, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      JSON.stringify(body),
    );

  it("counts every spelling against the same rate limit, for every limited path", async () => {
    const victim = await signedInUser(limited);
    const bodies: Record<string, unknown> = {
      "/sign-in/email": { email: victim.email, password: "wrong-password-1" },
      "/sign-up/email": { email: "new@example.test", password: "a-password-1", name: "New" },
      "/request-password-reset": { email: victim.email, redirectTo: "/reset-password" },
      "/reset-password": { token: "made-up", newPassword: "another-one-1" },
      "/send-verification-email": { email: victim.email },
      "/change-password": { currentPassword: "wrong-one", newPassword: "another-one-1" },
    };
    const escaped: string[] = [];
    // The limits count in fixed windows aligned to the epoch (lib/rate-limit.ts): a path whose
    // window turned over while it was being tried starts afresh in the new window, once.
    const windowsOf = (limits: (typeof LIMITS_BY_PATH)[string], at: number) =>
      limits.map((l) => Math.floor(at / 1000 / l.rule.windowSeconds)).join();
    for (const [path, limits] of Object.entries(LIMITS_BY_PATH)) {
      const smallest = Math.min(...limits.map((l) => l.rule.limit));
      const body = bodies[path] ?? {};
      for (let attempt = 0; attempt < 2; attempt++) {
        const started = Date.now();
        const found: string[] = [];
        // Spend the limit with every spelling in turn…
        for (let i = 0; i < smallest; i++) {
          const url = i % 2 === 0 ? `/api/auth${path}` : AUTH_SPELLINGS[i % AUTH_SPELLINGS.length](path);
          const res = await post(limited, url, body);
          if (res.status === 429) break; // a shared key (the two-factor routes) is spent already
        }
        // …then no spelling gets through.
        for (const spell of [(p: string) => `/api/auth${p}`, ...AUTH_SPELLINGS]) {
          const res = await post(limited, spell(path), body);
          if (res.status !== 429) found.push(`${spell(path)}: ${res.status}`);
        }
        if (path === "/sign-in/email") {
          // The right password, spelled with a dot segment, is still refused: the account is locked for now.
          const right = await post(limited, "/api/auth/./sign-in/email", {
            email: victim.email,
            password: victim.password,
          });
          if (right.status !== 429 || right.headers["set-cookie"] !== undefined) {
            found.push(`the right password: ${right.status}`);
          }
        }
        if (windowsOf(limits, started) === windowsOf(limits, Date.now()) || attempt === 1) {
          escaped.push(...found);
          break;
        }
      }
    }
    expect(escaped).toEqual([]);
  }, 120_000);

  it("keeps the answer-time floor of sign-up and reset requests whatever the spelling", async () => {
    for (const path of Object.keys(UNIFORM_ANSWER_MS)) {
      for (const spell of AUTH_SPELLINGS.slice(0, 3)) {
        const body =
          path === "/sign-up/email"
            ? {
                email: `floor-${randomUUID()}@example.test`,
                password: "a-password-1",
                name: "Floor",
                username: `floor_${randomUUID().slice(0, 8)}`,
              }
            : { email: `${randomUUID()}@example.test`, redirectTo: "/reset-password" };
        const started = performance.now();
        const res = await post(t, spell(path), body);
        const took = performance.now() - started;
        expect(res.status, spell(path)).toBe(200);
        expect(took, spell(path)).toBeGreaterThanOrEqual(UNIFORM_ANSWER_MS[path] - 5);
      }
    }
  });

  it("ends the other sessions on a password change whatever the spelling, even when asked not to", async () => {
    for (const spell of AUTH_SPELLINGS) {
      const u = await signedInUser(t);
      const other = sessionCookie(
        (await post(t, "/api/auth/sign-in/email", { email: u.email, password: u.password })).headers,
      );
      const res = await post(
        t,
        spell("/change-password"),
        { currentPassword: u.password, newPassword: "another-one-1", revokeOtherSessions: false },
        u.cookie,
      );
      expect(res.status, spell("/change-password")).toBe(200);
      expect((await api(t.app).get("/api/me", { cookie: other })).body.user, spell("/change-password")).toBeNull();
    }
  });

  it("answers 404 for a path that is no word of Better Auth's (an escape that stays escaped, a trailing slash)", async () => {
    for (const url of ["/api/auth/sign-in%2Femail", "/api/auth/sign-in/email/", "/api/auth/sign-in/email%00"]) {
      const res = await post(t, url, { email: w.member.email, password: w.member.password });
      expect(res.status, url).toBe(404);
      expect(res.headers["set-cookie"], url).toBeUndefined();
    }
  });
});

describe("answers that depend on the session say so", () => {
  it("signed in, JSON answers are private and never stored, and vary by cookie", async () => {
    const urls = [
      "/api/me",
      `/api/communities/${w.b.id}`,
      `/api/communities/${w.b.id}/posts`,
      `/api/communities/${w.a.id}/posts`,
      "/api/notifications/unread-count",
    ];
    for (const url of urls) {
      const res = ok(await api(t.app).get(url, { cookie: w.ownerB.cookie }));
      expect(res.headers["cache-control"], url).toBe("private, no-store");
      expect(String(res.headers.vary), url).toMatch(/(^|,\s*)cookie(,|$)/i);
    }
  });

  it("anonymous API answers vary by cookie too, so a shared cache never hands them to a member", async () => {
    const res = ok(await api(t.app).get(`/api/communities/${w.a.id}/posts`));
    expect(String(res.headers.vary)).toMatch(/(^|,\s*)cookie(,|$)/i);
    expect(res.headers["cache-control"] ?? "").not.toMatch(/public/);
  });

  it("a route's own Cache-Control is kept (the public configuration)", async () => {
    const res = await send(t, "GET", "/api/config", { cookie: w.owner.cookie });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
  });
});

describe("bodies nested too deeply", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("are refused with a 400 on the auth routes and on the others, never a 500", async () => {
    const deep = `{"email":${nested(100_000)},"password":"x"}`;
    for (const url of ["/api/auth/sign-in/email", "/api/auth/sign-up/email", `/api/communities/${w.a.id}/posts`]) {
      const res = await send(
        t,
        "POST",
        url,
        { origin: ORIGIN, "content-type": "application/json", cookie: w.owner.cookie },
        deep,
      );
      expect(res.status, url).toBe(400);
      expect(JSON.parse(res.body).error.message, url).toBe("The request body is nested too deeply");
    }
  });

  it("a body as deep as Hearth's own still goes through", async () => {
    const res = await api(t.app).post(
      `/api/communities/${w.a.id}/posts`,
      { type: "poll", content: "Deep enough?", poll: { options: ["Yes", "No"], duration_hours: 0 } },
      { cookie: w.owner.cookie },
    );
    expect(res.status).toBe(201);
  });
});
