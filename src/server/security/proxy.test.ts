/**
 * Issue 15, items 1 and 3: Hearth behind a real reverse proxy on the same machine, as in
 * docs/deployment.md. The proxy is a small node:http server on 127.0.0.1 that does what nginx's
 * `proxy_set_header` lines do: Host $host, X-Forwarded-For $proxy_add_x_forwarded_for (the
 * client's own header, then the address the client connected from), X-Forwarded-Proto $scheme,
 * X-Real-IP $remote_addr. Every request it forwards reaches Hearth from 127.0.0.1.
 *
 * 1. The local outbox (/dev/mailbox) is never served through it, whatever PUBLIC_URL says, so a
 *    reset requested for a victim cannot be read; the operators' /admin/mailbox is.
 * 2. Per-address limits count the address the proxy appended, not the client-written first entry
 *    of X-Forwarded-For.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "#server/config";
import { outboxStartupLine } from "#server/features/dev/outbox";
import { createMailer } from "#server/lib/mail";
import { RATE_RULES } from "#server/lib/rate-limit";
import { createConfirmedUser } from "#server/seed/seed";
import { clearOfWindowEnd, createTestApp, ORIGIN, sessionCookie, type TestApp } from "#server/test/harness";

const PROD_ORIGIN = "https://community.example.com";
const PROD_HOST = "community.example.com";

/** The settings as Hearth reads them from the environment (the parsing is part of what is tested). */
const configDir = mkdtempSync(path.join(os.tmpdir(), "hearth-proxy-config-"));
function fromEnv(env: Record<string, string>): Partial<Config> {
  const c = loadConfig({ DATA_DIR: configDir, AUTH_SECRET: "x".repeat(32), ...env });
  return { trustProxy: c.trustProxy, devMailbox: c.devMailbox, adminEmails: c.adminEmails };
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One HTTP request over a new connection, optionally from a chosen loopback address. */
function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: unknown; from?: string },
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: opts.method ?? "GET",
        path: opts.path,
        localAddress: opts.from,
        agent: false,
        headers: {
          ...(payload
            ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }
            : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"];

/** A reverse proxy on 127.0.0.1 in front of `target`, setting the headers of docs/deployment.md's nginx. */
async function startProxy(target: number, scheme: "http" | "https") {
  const server = http.createServer((req, res) => {
    const peer = req.socket.remoteAddress ?? "";
    const prior = req.headers["x-forwarded-for"];
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    Object.assign(headers, {
      // $host: the request's host name, lowercase, without the port.
      host: (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase(),
      // $proxy_add_x_forwarded_for: the client's X-Forwarded-For with $remote_addr appended.
      "x-forwarded-for": prior ? `${prior}, ${peer}` : peer,
      "x-forwarded-proto": scheme,
      "x-real-ip": peer,
    });
    const upstream = http.request(
      { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Site = { t: TestApp; direct: number; proxy: Awaited<ReturnType<typeof startProxy>> };

async function startSite(overrides: Partial<Config>, scheme: "http" | "https"): Promise<Site> {
  const t = await createTestApp(overrides);
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const direct = (t.app.server.address() as AddressInfo).port;
  return { t, direct, proxy: await startProxy(direct, scheme) };
}

const OPS = `ops-${randomBytes(4).toString("hex")}@example.test`;
const PASSWORD = "correct-horse-1";

/** A confirmed user made in the database, signed in through the site's proxy; returns the Cookie header. */
async function signedIn(site: Site, email: string): Promise<string> {
  const n = randomBytes(4).toString("hex");
  await createConfirmedUser(site.t.database.db, {
    email,
    name: `User ${n}`,
    username: `user_${n}`,
    password: PASSWORD,
  });
  const origin = site.t.config.publicUrl;
  const res = await send(site.proxy.port, {
    method: "POST",
    path: "/api/auth/sign-in/email",
    from: "127.0.0.4",
    headers: { host: new URL(origin).hostname, origin },
    body: { email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  return sessionCookie(res.headers);
}

let local: Site; // PUBLIC_URL on localhost: the outbox is on by default
let prod: Site; // PUBLIC_URL https://community.example.com, TRUST_PROXY=1, rate limits on
let off: Site; // PUBLIC_URL on localhost, DEV_MAILBOX=false

beforeAll(async () => {
  [local, prod, off] = await Promise.all([
    startSite(
      {
        ...fromEnv({ PUBLIC_URL: ORIGIN, TRUST_PROXY: "1", ADMIN_EMAILS: ` ${OPS.toUpperCase()}, x@example.test` }),
        publicUrl: ORIGIN,
      },
      "http",
    ),
    startSite(
      {
        ...fromEnv({ PUBLIC_URL: PROD_ORIGIN, TRUST_PROXY: "1", ADMIN_EMAILS: OPS }),
        publicUrl: PROD_ORIGIN,
        rateLimits: true,
      },
      "https",
    ),
    startSite({ ...fromEnv({ PUBLIC_URL: ORIGIN, DEV_MAILBOX: "false" }), publicUrl: ORIGIN }, "http"),
  ]);
});
afterAll(async () => {
  await Promise.all([local, prod, off].filter(Boolean).map((s) => s.proxy.close().then(() => s.t.close())));
  rmSync(configDir, { recursive: true, force: true });
});

const OUTBOX = ["/dev/mailbox", "/api/dev/mailbox", "/api/dev/mailbox?to=victim%40example.test"];

describe("item 1: the local outbox is never served through a reverse proxy", () => {
  it("directly from this machine with a localhost PUBLIC_URL, it is served (the development flow)", async () => {
    await local.t.app.ctx.mailer.send({ to: "dev@example.test", subject: "Hello dev", text: "Body" });
    const page = await send(local.direct, { path: "/dev/mailbox", headers: { host: `localhost:${local.direct}` } });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.text).toContain("Hello dev");
    const json = await send(local.direct, { path: "/api/dev/mailbox?to=dev%40example.test" });
    expect(json.status).toBe(200);
    expect(json.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(json.text).messages.map((m: { subject: string }) => m.subject)).toEqual(["Hello dev"]);
  });

  it("through the proxy it is 404, even with PUBLIC_URL on localhost", async () => {
    for (const url of OUTBOX) {
      const res = await send(local.proxy.port, { path: url, headers: { host: `localhost:${local.proxy.port}` } });
      expect(res.status, url).toBe(404);
      expect(res.text, url).not.toContain("Hello dev");
    }
  });

  it("directly from loopback, any forwarding header or a foreign Host makes it 404", async () => {
    const headers: Record<string, string>[] = [
      { "x-forwarded-for": "127.0.0.1" },
      { "x-forwarded-host": "localhost" },
      { "x-forwarded-proto": "http" },
      { "x-real-ip": "127.0.0.1" },
      { forwarded: "for=127.0.0.1" },
      { via: "1.1 nginx" },
      { host: "attacker.example" }, // DNS rebinding: a foreign name resolving to 127.0.0.1
    ];
    for (const h of headers) {
      for (const url of OUTBOX) {
        expect((await send(local.direct, { path: url, headers: h })).status, `${url} ${JSON.stringify(h)}`).toBe(404);
      }
    }
  });

  it("with a production PUBLIC_URL it is off: 404 through the proxy and directly", async () => {
    for (const url of OUTBOX) {
      expect((await send(prod.proxy.port, { path: url, headers: { host: PROD_HOST } })).status, url).toBe(404);
      expect((await send(prod.direct, { path: url })).status, url).toBe(404);
    }
  });

  it("the sign-in dialog is told where mail waits: the local outbox only where it is served", async () => {
    const transport = async (site: Site) =>
      JSON.parse((await send(site.direct, { path: "/api/config" })).text).mail_transport as string;
    expect(await transport(local)).toBe("outbox");
    expect(await transport(prod)).toBe("held");
    expect(await transport(off)).toBe("held");
  });

  it("with DEV_MAILBOX=false it is 404 directly from this machine too", async () => {
    await off.t.app.ctx.mailer.send({ to: "dev@example.test", subject: "Hello dev", text: "Body" });
    for (const url of OUTBOX) {
      expect((await send(off.direct, { path: url })).status, url).toBe(404);
      expect((await send(off.direct, { path: url, headers: { host: "127.0.0.1" } })).status, url).toBe(404);
    }
  });

  it("a password reset requested for a victim through the proxy cannot be read; an operator reads it", async () => {
    const victim = `victim-${randomBytes(4).toString("hex")}@example.test`;
    await createConfirmedUser(prod.t.database.db, {
      email: victim,
      name: "Victim",
      username: `victim_${randomBytes(4).toString("hex")}`,
      password: PASSWORD,
    });
    const asked = await send(prod.proxy.port, {
      method: "POST",
      path: "/api/auth/request-password-reset",
      headers: { host: PROD_HOST, origin: PROD_ORIGIN },
      body: { email: victim, redirectTo: "/reset-password" },
    });
    expect(asked.status, asked.text).toBe(200);
    const { rows } = await prod.t.database.pool.query<{ text: string }>(
      `SELECT text FROM mail_messages WHERE "to" = $1 AND subject = 'Reset your Hearth password'`,
      [victim],
    );
    expect(rows).toHaveLength(1);
    const link = rows[0].text.match(/https?:\/\/\S+/)![0];

    // The attacker, through the proxy: every door to the outbox is shut, signed in or not.
    const attacker = await signedIn(prod, `attacker-${randomBytes(4).toString("hex")}@example.test`);
    for (const url of [
      "/dev/mailbox",
      `/api/dev/mailbox?to=${encodeURIComponent(victim)}`,
      "/admin/mailbox",
      `/api/admin/mailbox?to=${encodeURIComponent(victim)}`,
    ]) {
      for (const cookie of [undefined, attacker]) {
        const res = await send(prod.proxy.port, {
          path: url,
          headers: { host: PROD_HOST, "x-forwarded-for": "127.0.0.1", ...(cookie ? { cookie } : {}) },
        });
        expect(res.status, `${url} ${cookie ? "signed in" : "anonymous"}`).toBe(404);
        expect(res.text).not.toContain(link);
      }
    }

    // The operator, signed in through the same proxy, finds it.
    const ops = await signedIn(prod, OPS);
    const json = await send(prod.proxy.port, {
      path: `/api/admin/mailbox?to=${encodeURIComponent(victim)}`,
      headers: { host: PROD_HOST, cookie: ops },
    });
    expect(json.status).toBe(200);
    expect(json.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(json.text).messages[0].text).toContain(link);
    const page = await send(prod.proxy.port, { path: "/admin/mailbox", headers: { host: PROD_HOST, cookie: ops } });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.text).toContain(victim);
  });

  it("the operator page answers only a confirmed ADMIN_EMAILS user; everyone else gets 404", async () => {
    const ops = await signedIn(local, OPS);
    const someone = await signedIn(local, `someone-${randomBytes(4).toString("hex")}@example.test`);
    for (const url of ["/admin/mailbox", "/api/admin/mailbox"]) {
      const asOps = await send(local.proxy.port, { path: url, headers: { host: "localhost", cookie: ops } });
      expect(asOps.status, url).toBe(200);
      for (const cookie of [undefined, someone]) {
        const res = await send(local.proxy.port, {
          path: url,
          headers: { host: "localhost", ...(cookie ? { cookie } : {}) },
        });
        expect(res.status, `${url} ${cookie ? "signed in" : "anonymous"}`).toBe(404);
      }
      // No operators configured: nobody, not even from this machine.
      expect((await send(off.direct, { path: url, headers: { cookie: ops } })).status, url).toBe(404);
    }
    // An operator whose address is no longer confirmed is refused too.
    await local.t.database.pool.query(`UPDATE "user" SET email_verified = false WHERE lower(email) = lower($1)`, [OPS]);
    local.t.app.ctx.viewer.evictUser(
      (await local.t.database.pool.query<{ id: string }>(`SELECT id FROM "user" WHERE lower(email) = lower($1)`, [OPS]))
        .rows[0].id,
    );
    expect(
      (await send(local.proxy.port, { path: "/api/admin/mailbox", headers: { host: "localhost", cookie: ops } }))
        .status,
    ).toBe(404);
  });
});

describe("item 1: mail kept for the operator when there is no SMTP", () => {
  it("each message is logged at warn with its recipient and subject, never its text or link", async () => {
    const warned: { obj: object; msg: string }[] = [];
    const mailer = createMailer({
      db: prod.t.database.db,
      from: "Hearth <no-reply@example.test>",
      log: { warn: (obj, msg) => warned.push({ obj, msg }) },
    });
    await mailer.send({
      to: "someone@example.test",
      subject: "Reset your Hearth password",
      text: "Reset: https://community.example.com/api/auth/reset-password/secret-token",
    });
    expect(warned).toHaveLength(1);
    expect(warned[0].obj).toMatchObject({ to: "someone@example.test", subject: "Reset your Hearth password" });
    expect(JSON.stringify(warned)).not.toContain("secret-token");
  });

  it("the start-up line says whether the outbox is on and where", () => {
    const line = (c: Partial<Config>) =>
      outboxStartupLine({ ...local.t.config, smtpUrl: undefined, adminEmails: [], ...c }, "http://127.0.0.1:3000");
    expect(line({ devMailbox: true })).toEqual({
      level: "info",
      text: expect.stringContaining(`on at ${ORIGIN}/dev/mailbox for requests from this machine only`),
    });
    const prodLine = line({ publicUrl: PROD_ORIGIN, devMailbox: false, adminEmails: [OPS] });
    expect(prodLine.level).toBe("warn");
    expect(prodLine.text).toContain(`/dev/mailbox off`);
    expect(prodLine.text).toContain(`${PROD_ORIGIN}/admin/mailbox`);
    expect(line({ publicUrl: PROD_ORIGIN, devMailbox: false }).text).toContain("set ADMIN_EMAILS");
  });
});

describe("item 3: per-address limits count the address the proxy appended (TRUST_PROXY=1)", () => {
  it(`80 failed sign-ins, each with a random client-written X-Forwarded-For, meet the 429 after ${RATE_RULES.signInPerIp.limit}`, async () => {
    // 81 sign-ins take a few seconds: a wait for the window's end (at most 15 s) and they fit in
    // the test's time (30 s, which waiting up to 30 s for the end did not).
    await clearOfWindowEnd(RATE_RULES.signInPerIp.windowSeconds, 15_000);
    const statuses: number[] = [];
    const written: string[] = [];
    for (let i = 0; i < 80; i++) {
      const forged = `${10 + (i % 200)}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (i % 250)}`;
      written.push(forged);
      const res = await send(prod.proxy.port, {
        method: "POST",
        path: "/api/auth/sign-in/email",
        from: "127.0.0.2", // the client's own address, which the proxy appends
        headers: { host: PROD_HOST, origin: PROD_ORIGIN, "x-forwarded-for": forged },
        body: { email: `nobody-${i}-${randomBytes(3).toString("hex")}@example.test`, password: "guess-123" },
      });
      statuses.push(res.status);
    }
    const limit = RATE_RULES.signInPerIp.limit;
    expect(
      statuses.slice(0, limit).every((s) => s === 401),
      statuses.join(" "),
    ).toBe(true);
    expect(
      statuses.slice(limit).every((s) => s === 429),
      statuses.join(" "),
    ).toBe(true);

    // request.ip was the proxy-appended address: one counter for it, none for a forged address
    // and none for the proxy's own 127.0.0.1.
    const { rows } = await prod.t.database.pool.query<{ key: string; count: number }>(
      `SELECT key, count FROM rate_limits WHERE key LIKE 'sign-in:ip:%'`,
    );
    const counted = rows.find((r) => r.key === "sign-in:ip:127.0.0.2");
    expect(counted?.count).toBeGreaterThan(limit);
    expect(rows.map((r) => r.key)).not.toContain("sign-in:ip:127.0.0.1");
    expect(written.some((w) => rows.some((r) => r.key.includes(w)))).toBe(false);

    // Another client behind the same proxy keeps its own count: the limit is not shared by everyone.
    const other = await send(prod.proxy.port, {
      method: "POST",
      path: "/api/auth/sign-in/email",
      from: "127.0.0.3",
      headers: { host: PROD_HOST, origin: PROD_ORIGIN, "x-forwarded-for": "127.0.0.2" },
      body: { email: `nobody-${randomBytes(3).toString("hex")}@example.test`, password: "guess-123" },
    });
    expect(other.status).toBe(401);
  });
});
