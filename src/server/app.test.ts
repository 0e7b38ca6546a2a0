import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "./test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

describe("HTTP basics", () => {
  it("reports health after a database round trip", async () => {
    const res = await http.get("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body).toEqual({ status: "ok", database: "ok" });
  });

  it("publishes the OpenAPI document and a reference page", async () => {
    const doc = await http.get("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/me", "/api/me/profile"]));
    const page = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const res = await http.get("/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
  });

  it("answers malformed JSON with a 400, never a 500", async () => {
    const u = await signedInUser(t);
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/me/profile",
      headers: { cookie: u.cookie, origin: ORIGIN, "content-type": "application/json" },
      payload: '{"bio": "unterminated',
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.message).toBe("The request body is not valid JSON");
  });

  it("answers an oversized body with a 413", async () => {
    const u = await signedInUser(t);
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/me/profile",
      headers: { cookie: u.cookie, origin: ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ bio: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("sends the security headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(String(res.headers["strict-transport-security"])).toMatch(/max-age=31536000/);
  });
});

describe("cross-site request protection", () => {
  it("refuses writes from another origin or another site", async () => {
    const u = await signedInUser(t);
    const evil = await http.patch(
      "/api/me/profile",
      { bio: "pwned" },
      { cookie: u.cookie, headers: { origin: "https://evil.test" } },
    );
    expect(evil.status).toBe(403);
    const site = await http.patch(
      "/api/me/profile",
      { bio: "pwned" },
      { cookie: u.cookie, headers: { "sec-fetch-site": "cross-site" } },
    );
    expect(site.status).toBe(403);
    const signOut = await http.post(
      "/api/auth/sign-out",
      {},
      { cookie: u.cookie, headers: { origin: "https://evil.test" } },
    );
    expect(signOut.status).toBe(403);
    expect((await http.get("/api/me", { cookie: u.cookie })).body.profile.bio).toBe("");
  });

  it("refuses form-encoded and text/plain bodies (what a cross-site form can send)", async () => {
    const u = await signedInUser(t);
    for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: "/api/me/profile",
        headers: { cookie: u.cookie, "content-type": type },
        payload: type === "text/plain" ? '{"bio":"pwned"}' : "bio=pwned",
      });
      expect(res.statusCode, type).toBe(415);
    }
    expect((await http.get("/api/me", { cookie: u.cookie })).body.profile.bio).toBe("");
  });
});

describe("dev mailbox", () => {
  it("is served to loopback only", async () => {
    const local = await t.app.inject({ method: "GET", url: "/dev/mailbox", remoteAddress: "127.0.0.1" });
    expect(local.statusCode).toBe(200);
    expect(local.headers["content-type"]).toMatch(/text\/html/);
    const remote = await t.app.inject({ method: "GET", url: "/dev/mailbox", remoteAddress: "203.0.113.9" });
    expect(remote.statusCode).toBe(404);
    const spoofed = await t.app.inject({
      method: "GET",
      url: "/api/dev/mailbox",
      remoteAddress: "203.0.113.9",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(spoofed.statusCode).toBe(404);
  });

  it("shows messages newest first with clickable, escaped links", async () => {
    await t.app.ctx.mailer.send({
      to: "a@example.test",
      subject: "First <b>",
      text: "Hello https://example.test/a?x=1&y=2",
    });
    await t.app.ctx.mailer.send({ to: "b@example.test", subject: "Second", text: "Body" });
    const page = await t.app.inject({ method: "GET", url: "/dev/mailbox", remoteAddress: "127.0.0.1" });
    expect(page.body.indexOf("Second")).toBeLessThan(page.body.indexOf("First &lt;b&gt;"));
    expect(page.body).toContain('<a href="https://example.test/a?x=1&amp;y=2">');
    expect(page.body).not.toContain("<b>");
  });
});

describe("compression", () => {
  it("sends JSON over 1 KB compressed to clients that ask, the same bytes once decoded, and small or unasked ones as they are", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const url = "/api/openapi.json";
    const plain = await t.app.inject({ method: "GET", url });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    // A small answer is not worth it.
    const health = await t.app.inject({ method: "GET", url: "/api/health", headers: { "accept-encoding": "br" } });
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(health.json()).toEqual({ status: "ok", database: "ok" });
  });
});

describe("single-page app serving", () => {
  it("serves the page for app routes and a 404 for a missing asset", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { buildApp } = await import("./app");
    const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-web-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Hearth</title>");
    writeFileSync(path.join(dir, "assets", "app-1.js"), "console.log(1)");
    const { brotliCompressSync, gzipSync, brotliDecompressSync } = await import("node:zlib");
    const big = `console.log(${JSON.stringify("x".repeat(5000))})`;
    writeFileSync(path.join(dir, "assets", "big-2.js"), big);
    writeFileSync(path.join(dir, "assets", "big-2.js.br"), brotliCompressSync(big));
    writeFileSync(path.join(dir, "assets", "big-2.js.gz"), gzipSync(big));
    const app = await buildApp({
      config: { ...t.config, serveWeb: true },
      database: t.database,
      logger: false,
      startWorker: false,
      webDist: dir,
    });
    try {
      expect((await app.inject({ method: "GET", url: "/assets/missing-abc123.js" })).statusCode).toBe(404);
      const asset = await app.inject({ method: "GET", url: "/assets/app-1.js" });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers["cache-control"]).toContain("immutable");
      const page = await app.inject({ method: "GET", url: "/u/someone" });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("<title>Hearth</title>");
      expect((await app.inject({ method: "GET", url: "/api/nope" })).statusCode).toBe(404);

      // The build's precompressed copies are sent to browsers that take them, as they are.
      const br = await app.inject({
        method: "GET",
        url: "/assets/big-2.js",
        headers: { "accept-encoding": "gzip, deflate, br" },
      });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-type"]).toContain("javascript");
      expect(br.headers["cache-control"]).toContain("immutable");
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(big);
      const gz = await app.inject({ method: "GET", url: "/assets/big-2.js", headers: { "accept-encoding": "gzip" } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      const plain = await app.inject({
        method: "GET",
        url: "/assets/big-2.js",
        headers: { "accept-encoding": "identity" },
      });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(big);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("dev mailbox for one address", () => {
  it("finds a recipient's message even when many newer messages exist", async () => {
    await t.app.ctx.mailer.send({ to: "Early@Example.test", subject: "Early", text: "first" });
    for (let i = 0; i < 105; i++)
      await t.app.ctx.mailer.send({ to: `bulk${i}@example.test`, subject: "Bulk", text: "x" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/dev/mailbox?to=early@example.test",
      remoteAddress: "127.0.0.1",
    });
    expect(JSON.parse(res.body).messages.map((m: { subject: string }) => m.subject)).toEqual(["Early"]);
  });
});

describe("a client that goes away mid-upload", () => {
  it("is logged as a closed request, not as the database being unavailable", async () => {
    const net = await import("node:net");
    const { Writable } = await import("node:stream");
    const { buildApp } = await import("./app");
    const lines: { msg?: string; level?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await buildApp({
      config: t.config,
      database: t.database,
      logger: { level: "info", stream },
      startWorker: false,
    });
    try {
      const user = await signedInUser(t);
      await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as AddressInfo;
      const boundary = "----hearthabort";
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      const socket = net.connect(port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        [
          "POST /api/me/avatar HTTP/1.1",
          `host: 127.0.0.1:${port}`,
          `origin: ${ORIGIN}`,
          `cookie: ${user.cookie}`,
          `content-type: multipart/form-data; boundary=${boundary}`,
          `content-length: ${head.length + 1024 * 1024}`,
          "",
          "",
        ].join("\r\n"),
      );
      socket.write(Buffer.concat([head, Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(64 * 1024)]));
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
      const deadline = Date.now() + 5_000;
      while (!lines.some((l) => l.msg === "client closed the request") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(lines.map((l) => l.msg)).toContain("client closed the request");
      expect(lines.map((l) => l.msg)).not.toContain("database unavailable");
      expect(lines.filter((l) => (l.level ?? 0) >= 40)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
