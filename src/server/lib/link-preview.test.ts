import type * as NetModule from "node:net";
import type * as TlsModule from "node:tls";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { linkPreviews } from "#server/db/schema/posts";
import { createTestApp, type TestApp } from "#server/test/harness";
import { fetchLinkPreview, getLinkPreview, previewCacheKey } from "./link-preview";
import {
  BASE,
  connections,
  hits,
  hostHeaders,
  opts,
  PORT,
  rebinding,
  resolved,
  resolver,
  streamed,
  useTestServer,
} from "./link-preview.test-helpers";

// Every socket the fetcher opens goes through net.connect / tls.connect, mocked here: each
// attempt is recorded, and only the loopback test server's exact address and port get a real
// connection. So no request can leave the machine even if a guard is broken, and a refusal can
// be told apart from a failed connection.
const sockets = vi.hoisted(() => ({
  attempts: [] as { via: "net" | "tls"; host?: string; port?: number; servername?: string }[],
  allowed: null as null | { address: string; port: number },
}));

vi.mock("node:net", async (importOriginal) => {
  const actual = await importOriginal<typeof NetModule>();
  const connect = ((opts: { host?: string; port?: number }) => {
    sockets.attempts.push({ via: "net", host: opts.host, port: opts.port });
    const a = sockets.allowed;
    if (a && opts.host === a.address && opts.port === a.port) return actual.connect(opts as never);
    const s = new actual.Socket();
    process.nextTick(() => s.destroy(new Error("test: outgoing connection blocked")));
    return s;
  }) as typeof actual.connect;
  // The fetcher imports named exports; ip-guard uses the default export (isIP, BlockList).
  const base = (actual as unknown as { default: typeof NetModule }).default;
  return { ...actual, default: { ...base, connect, createConnection: connect }, connect };
});

vi.mock("node:tls", async (importOriginal) => {
  const actual = await importOriginal<typeof TlsModule>();
  const connect = ((opts: { host?: string; port?: number; servername?: string }) => {
    sockets.attempts.push({ via: "tls", host: opts.host, port: opts.port, servername: opts.servername });
    const s = new actual.TLSSocket(null as never);
    process.nextTick(() => s.destroy(new Error("test: outgoing connection blocked")));
    return s;
  }) as typeof actual.connect;
  const base = (actual as unknown as { default: typeof TlsModule }).default;
  return { ...actual, default: { ...base, connect }, connect };
});

useTestServer(sockets);

describe("fetchLinkPreview refuses before connecting", () => {
  const S1_URLS = [
    "http://127.0.0.1/",
    "http://[::]/",
    "http://0.0.0.0/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://100.64.0.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://localhost/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[ff02::1]/",
    "http://198.18.0.1/",
    "http://192.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "https://169.254.169.254/",
    "https://[::1]/",
  ];
  it.each(S1_URLS)("%s: null, no socket opened", async (url) => {
    expect(await fetchLinkPreview(url, { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(sockets.attempts).toEqual([]);
    expect(resolved).toEqual([]);
  });

  it.each([
    "http://loopback.test/",
    "http://metadata.test/",
    "http://mapped.test/",
    "http://nat64.test/",
    "http://sixtofour.test/",
    "http://zero.test/",
    "http://any6.test/",
    "http://v6loop.test/",
    "http://ula.test/",
    "http://linklocal6.test/",
    "http://cgnat.test/",
    "http://private.test/",
    "http://mixed.test/",
    "http://empty.test/",
    "http://unknown.test/",
    "https://loopback.test/",
  ])("%s (resolves inward, or not at all): null, no socket opened", async (url) => {
    expect(await fetchLinkPreview(url, { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(resolved).toEqual([new URL(url).hostname]);
    expect(sockets.attempts).toEqual([]);
  });

  it("loopback forms at the test server's own port are refused without the allowance", async () => {
    for (const url of [
      `${BASE}/og`,
      `http://[::1]:${PORT}/og`,
      `http://[::ffff:127.0.0.1]:${PORT}/og`,
      `http://2130706433:${PORT}/og`,
      `http://0x7f.1:${PORT}/og`,
      `http://localhost:${PORT}/og`,
      `http://0.0.0.0:${PORT}/og`,
      `http://loopback.test:${PORT}/og`,
    ]) {
      expect(await fetchLinkPreview(url, { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    }
    expect(sockets.attempts).toEqual([]);
    expect(connections).toBe(0);
  });

  it("the allowance is one address and port: other ports, forms and mixed answers stay refused", async () => {
    for (const url of [
      `http://[::1]:${PORT}/og`,
      `http://localhost:${PORT}/og`,
      `http://127.0.0.2:${PORT}/og`,
      `http://127.0.0.1:${PORT + 1}/og`,
      "http://127.0.0.1/og",
      `http://mixed-loop.test:${PORT}/og`,
    ]) {
      expect(await fetchLinkPreview(url, opts())).toBeNull();
    }
    expect(sockets.attempts).toEqual([]);
    expect(connections).toBe(0);
  });

  it("ports other than 80 and 443 are refused even for public addresses", async () => {
    for (const url of ["http://public.test:8080/", "https://public.test:8443/", "http://93.184.215.14:25/"]) {
      expect(await fetchLinkPreview(url, { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    }
    expect(sockets.attempts).toEqual([]);
  });

  it("a public address is connected to by its checked IP, with the hostname kept for TLS (control case)", async () => {
    expect(await fetchLinkPreview("http://public.test/a", { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(await fetchLinkPreview("https://public.test/b", { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(await fetchLinkPreview("http://multi.test/c", { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(await fetchLinkPreview("https://93.184.215.14/d", { resolveHost: resolver, timeoutMs: 2_000 })).toBeNull();
    expect(sockets.attempts).toEqual([
      { via: "net", host: "93.184.215.14", port: 80 },
      { via: "tls", host: "93.184.215.14", port: 443, servername: "public.test" },
      { via: "net", host: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", port: 80 },
      { via: "tls", host: "93.184.215.14", port: 443, servername: undefined },
    ]);
    expect(resolved).toEqual(["public.test", "public.test", "multi.test"]);
  });
});

describe("fetchLinkPreview through the test-only allowance", () => {
  it("reads Open Graph fields as plain text", async () => {
    const p = await fetchLinkPreview(`${BASE}/og#section`, opts());
    expect(p).toEqual({
      url: `${BASE}/og`,
      title: "Tom & Jerry's show 😀 &amp;",
      description: 'Line one line "two"',
      image: "http://cdn.example.com/img/cover.png?a=1&b=2",
    });
    expect(sockets.attempts).toEqual([{ via: "net", host: "127.0.0.1", port: PORT }]);
    expect(hostHeaders).toEqual([`127.0.0.1:${PORT}`]);
  });

  it("markup and script in fields become text; javascript: and data: images are dropped", async () => {
    const p = await fetchLinkPreview(`${BASE}/xss`, opts());
    expect(p).toEqual({ url: `${BASE}/xss`, title: "Hello world", description: "Safe text", image: null });
  });

  it("an image on a private host is dropped (viewers' browsers would load it)", async () => {
    const p = await fetchLinkPreview(`${BASE}/private-image`, opts());
    expect(p?.title).toBe("T");
    expect(p?.image).toBeNull();
  });

  it("tolerates odd markup and ignores comments and scripts", async () => {
    const p = await fetchLinkPreview(`${BASE}/tolerant`, opts());
    expect(p).toMatchObject({ title: "Unquoted", description: "Described", image: "https://images.example.org/t.jpg" });
  });

  it("falls back to <title> and meta description", async () => {
    const p = await fetchLinkPreview(`${BASE}/plain`, opts());
    expect(p).toMatchObject({ title: "Plain page", description: "Meta description", image: null });
  });

  it("a page with nothing to show gives null", async () => {
    expect(await fetchLinkPreview(`${BASE}/empty`, opts())).toBeNull();
  });

  it("caps the title at 200 and the description at 500 characters", async () => {
    const p = await fetchLinkPreview(`${BASE}/long`, opts());
    expect(Array.from(p!.title)).toHaveLength(200);
    expect(Array.from(p!.description)).toHaveLength(500);
    expect(p!.title.endsWith("…")).toBe(true);
  });

  it("accepts XHTML, gzip and a declared charset", async () => {
    expect((await fetchLinkPreview(`${BASE}/xhtml`, opts()))?.title).toBe("XHTML page");
    expect((await fetchLinkPreview(`${BASE}/gzip`, opts()))?.title).toBe("Compressed");
    expect((await fetchLinkPreview(`${BASE}/latin1`, opts()))?.title).toBe("Café");
  });

  it("refuses other content types and error statuses", async () => {
    for (const path of ["/json", "/png", "/no-type", "/missing"]) {
      expect(await fetchLinkPreview(`${BASE}${path}`, opts())).toBeNull();
    }
    expect(hits.get("/json")).toBeGreaterThan(0);
  });

  it("DNS rebinding: the name is resolved once per hop and the checked address is the one connected to", async () => {
    rebinding.calls = 0;
    const p = await fetchLinkPreview(`http://rebind.test:${PORT}/og`, opts());
    expect(p?.title).toContain("Tom & Jerry");
    expect(rebinding.calls).toBe(1);
    expect(sockets.attempts).toEqual([{ via: "net", host: "127.0.0.1", port: PORT }]);
    expect(hostHeaders).toEqual([`rebind.test:${PORT}`]);
  });
});

describe("redirects", () => {
  it("follows up to 3 redirects, re-resolving relative locations", async () => {
    const p = await fetchLinkPreview(`${BASE}/r/2`, opts());
    expect(p?.url).toBe(`${BASE}/r/2`);
    expect(p?.title).toContain("Tom & Jerry");
    expect(hits.get("/og")).toBeGreaterThan(0);
    expect(sockets.attempts).toHaveLength(4);
  });

  it("refuses a 4th redirect without requesting its target", async () => {
    const before = hits.get("/r/0") ?? 0;
    expect(await fetchLinkPreview(`${BASE}/r/3`, opts())).toBeNull();
    expect(sockets.attempts).toHaveLength(4);
    expect(hits.get("/r/0")).toBe(before + 1);
    expect(hostHeaders).toHaveLength(4);
  });

  it.each([
    "/to-metadata",
    "/to-loopback-80",
    "/to-localhost",
    "/to-ipv6-loopback",
    "/to-decimal",
    "/to-hostname",
    "/to-ftp",
    "/to-nowhere",
  ])("a redirect from the allowed server inward (%s) is refused before connecting", async (path) => {
    expect(await fetchLinkPreview(`${BASE}${path}`, opts())).toBeNull();
    expect(sockets.attempts).toEqual([{ via: "net", host: "127.0.0.1", port: PORT }]);
    expect(connections).toBe(1);
  });
});

describe("limits", () => {
  it("a trickling server hits the total timeout", async () => {
    const started = Date.now();
    expect(await fetchLinkPreview(`${BASE}/trickle`, opts({ timeoutMs: 300 }))).toBeNull();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1_500);
  });

  it("an endless body is cut at 1 MB and the connection closed", async () => {
    streamed.bytes = 0;
    streamed.closed = false;
    const started = Date.now();
    const p = await fetchLinkPreview(`${BASE}/huge`, opts({ timeoutMs: 5_000 }));
    expect(p?.title).toBe("Big");
    expect(Date.now() - started).toBeLessThan(3_000);
    await vi.waitFor(() => expect(streamed.closed).toBe(true));
    expect(streamed.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it("nothing past the first 1 MB is read", async () => {
    expect(await fetchLinkPreview(`${BASE}/late-title`, opts())).toBeNull();
    expect((await fetchLinkPreview(`${BASE}/late-title`, opts({ maxBytes: 2 * 1024 * 1024 })))?.title).toBe("Late");
  });

  it("reading stops at </head> without waiting for the rest", async () => {
    const started = Date.now();
    expect((await fetchLinkPreview(`${BASE}/head-then-hang`, opts({ timeoutMs: 3_000 })))?.title).toBe("Early");
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe("getLinkPreview (cache on PostgreSQL)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const row = async (url: string) =>
    (
      await t.database.db
        .select()
        .from(linkPreviews)
        .where(sql`${linkPreviews.url} = ${url}`)
    )[0];

  it("normalizes the key: lowercase host, no fragment", () => {
    expect(previewCacheKey("HTTP://Example.COM:80/a?b=1#frag")).toBe("http://example.com/a?b=1");
    expect(previewCacheKey("javascript:alert(1)")).toBeNull();
  });

  it("a cached answer is returned without fetching again", async () => {
    const url = `${BASE}/count/og#top`;
    const first = await getLinkPreview({ db: t.database.db, url, options: opts() });
    expect(first?.title).toContain("Tom & Jerry");
    const second = await getLinkPreview({ db: t.database.db, url: `${BASE}/count/og`, options: opts() });
    expect(second).toEqual(first);
    expect(hits.get("/count/og")).toBe(1);
    expect((await row(`${BASE}/count/og`))?.preview).toEqual(first);
  });

  it("a failure is cached as null and not fetched again", async () => {
    const url = `${BASE}/count/missing`;
    expect(await getLinkPreview({ db: t.database.db, url, options: opts() })).toBeNull();
    expect(await getLinkPreview({ db: t.database.db, url, options: opts() })).toBeNull();
    expect(hits.get("/count/missing")).toBe(1);
    const stored = await row(url);
    expect(stored).toBeDefined();
    expect(stored.preview).toBeNull();
  });

  it("an answer older than 24 h is fetched again", async () => {
    const url = `${BASE}/count/plain`;
    await getLinkPreview({ db: t.database.db, url, options: opts() });
    await t.database.db.execute(
      sql`update link_previews set fetched_at = now() - interval '25 hours' where url = ${url}`,
    );
    const again = await getLinkPreview({ db: t.database.db, url, options: opts() });
    expect(again?.title).toBe("Plain page");
    expect(hits.get("/count/plain")).toBe(2);
  });

  it("concurrent calls share one fetch", async () => {
    const url = `${BASE}/count/xhtml`;
    const all = await Promise.all([1, 2, 3].map(() => getLinkPreview({ db: t.database.db, url, options: opts() })));
    expect(all.map((p) => p?.title)).toEqual(["XHTML page", "XHTML page", "XHTML page"]);
    expect(hits.get("/count/xhtml")).toBe(1);
  });

  it("URLs refused without DNS are neither fetched nor stored", async () => {
    for (const url of ["http://10.0.0.1/", "http://2130706433/", "http://example.com:8080/", "ftp://example.com/"]) {
      expect(await getLinkPreview({ db: t.database.db, url })).toBeNull();
    }
    const [{ n }] = (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from link_previews where url like '%10.0.0.1%' or url like '%127.0.0.1/' or url like '%:8080%' or url like 'ftp:%'`,
      )
    ).rows;
    expect(n).toBe(0);
    expect(sockets.attempts).toEqual([]);
  });
});
