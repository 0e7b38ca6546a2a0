import http from "node:http";
import type * as NetModule from "node:net";
import type { AddressInfo, Socket } from "node:net";
import type * as TlsModule from "node:tls";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { linkPreviews } from "#server/db/schema/posts";
import { createTestApp, type TestApp } from "#server/test/harness";
import { firstUrl as firstHttpUrl } from "#shared/posts";
import { isPublicAddress, parsePreviewUrl } from "./ip-guard";
import {
  extractPreview,
  fetchLinkPreview,
  getLinkPreview,
  previewCacheKey,
  type LinkPreviewOptions,
} from "./link-preview";

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

// ---------------------------------------------------------------------------------------------
// A loopback HTTP server that counts connections and requests per path.

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const hits = new Map<string, number>();
const hostHeaders: string[] = [];
let connections = 0;
let server: http.Server;
let PORT = 0;
let BASE = "";
const openSockets = new Set<Socket>();
const streamed = { bytes: 0, closed: false };

const html = (body: string, type = "text/html; charset=utf-8"): Handler => {
  return (_req, res) => {
    res.writeHead(200, { "content-type": type });
    res.end(body);
  };
};

const OG_PAGE = `<!doctype html><html><head>
<meta charset="utf-8">
<title>Fallback title</title>
<meta property="og:title" content="Tom &amp; Jerry&#39;s &lt;b&gt;show&lt;/b&gt; &#x1F600; &amp;amp;">
<meta property="og:description" content="  Line one
   line &quot;two&quot;  ">
<meta property="og:image" content="//cdn.example.com/img/cover.png?a=1&amp;b=2">
</head><body><h1>Body</h1></body></html>`;

const routes: Record<string, Handler> = {
  "/og": html(OG_PAGE),
  "/xss": html(`<html><head>
<title><script>alert(1)</script>Hello <b>world</b></title>
<meta property="og:description" content="&lt;script&gt;alert(2)&lt;/script&gt;Safe &lt;img src=x onerror=alert(3)&gt;text">
<meta property="og:image" content="javascript:alert(1)">
<meta property="og:image:url" content=" JaVaScRiPt:alert(1)">
<meta name="twitter:image" content="data:image/svg+xml,<svg onload=alert(1)>">
</head></html>`),
  "/private-image": html(`<head><title>T</title><meta property="og:image" content="/img/a.png"></head>`),
  "/tolerant": html(`<HTML><HEAD>
<!-- <meta property="og:title" content="From a comment"> -->
<script>document.write("<meta property='og:description' content='From a script'>")</script>
<META PROPERTY='og:title' CONTENT=Unquoted>
<meta content="Described" name="DESCRIPTION" >
<meta name=twitter:image content=https://images.example.org/t.jpg>
</HEAD></HTML>`),
  "/plain": html(`<html><head><title lang="en">
  Plain   page </title><meta name="description" content="Meta description"></head></html>`),
  "/empty": html(`<html><head></head><body><p>No metadata at all</p></body></html>`),
  "/long": html(
    `<head><meta property="og:title" content="${"T".repeat(500)}"><meta property="og:description" content="${"D".repeat(2000)}"></head>`,
  ),
  "/xhtml": html(`<head><title>XHTML page</title></head>`, "application/xhtml+xml"),
  "/latin1": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" });
    res.end(Buffer.concat([Buffer.from("<head><title>Caf"), Buffer.from([0xe9]), Buffer.from("</title></head>")]));
  },
  "/gzip": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
    res.end(zlib.gzipSync(`<head><title>Compressed</title></head>`));
  },
  "/json": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ title: "<title>Not HTML</title>" }));
  },
  "/png": (_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end("<head><title>Not HTML</title></head>");
  },
  "/no-type": (_req, res) => {
    res.writeHead(200);
    res.end("<head><title>No type</title></head>");
  },
  "/missing": (_req, res) => {
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<head><title>Not found</title></head>");
  },
  "/trickle": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<html><head><title>");
    const timer = setInterval(() => res.write("a"), 50);
    res.on("close", () => clearInterval(timer));
  },
  "/huge": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<html><head><title>Big</title>");
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!res.destroyed && streamed.bytes < 256 * 1024 * 1024) {
        streamed.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    res.on("close", () => {
      streamed.closed = true;
    });
    pump();
  },
  "/late-title": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head>${"a".repeat(1536 * 1024)}<title>Late</title></head>`);
  },
  "/head-then-hang": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<html><head><title>Early</title></head><body>");
  },
  "/to-metadata": (_req, res) => redirect(res, "http://169.254.169.254/latest/meta-data/"),
  "/to-loopback-80": (_req, res) => redirect(res, "http://127.0.0.1/og"),
  "/to-localhost": (_req, res) => redirect(res, `http://localhost:${PORT}/og`),
  "/to-ipv6-loopback": (_req, res) => redirect(res, `http://[::1]:${PORT}/og`),
  "/to-decimal": (_req, res) => redirect(res, "http://2130706433/og"),
  "/to-hostname": (_req, res) => redirect(res, "http://loopback.test/og"),
  "/to-ftp": (_req, res) => redirect(res, "ftp://example.com/file"),
  "/to-nowhere": (_req, res) => {
    res.writeHead(302);
    res.end();
  },
};

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(302, { location });
  res.end();
}

// /r/N redirects (relatively) to /r/N-1; /r/0 redirects to /og: /r/N is N+1 redirects.
function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = (req.url ?? "/").split("?")[0];
  hits.set(path, (hits.get(path) ?? 0) + 1);
  hostHeaders.push(String(req.headers.host));
  const hop = /^\/r\/(\d+)$/.exec(path);
  if (hop) return redirect(res, Number(hop[1]) === 0 ? "/og" : `/r/${Number(hop[1]) - 1}`);
  const count = /^\/count\/(.+)$/.exec(path);
  if (count) return (routes[`/${count[1]}`] ?? routes["/missing"])(req, res);
  (routes[path] ?? routes["/missing"])(req, res);
}

const allow = () => ({ address: "127.0.0.1", port: PORT });
const opts = (extra: LinkPreviewOptions = {}): LinkPreviewOptions => ({
  testOnlyAllow: allow(),
  resolveHost: resolver,
  timeoutMs: 2_000,
  ...extra,
});

// Test DNS: never the network. Unknown names fail like NXDOMAIN.
const resolved: string[] = [];
const DNS: Record<string, string[]> = {
  "loopback.test": ["127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "nat64.test": ["64:ff9b::7f00:1"],
  "sixtofour.test": ["2002:7f00:1::"],
  "zero.test": ["0.0.0.0"],
  "any6.test": ["::"],
  "v6loop.test": ["::1"],
  "ula.test": ["fd00::1"],
  "linklocal6.test": ["fe80::1"],
  "cgnat.test": ["100.64.0.1"],
  "private.test": ["10.0.0.1"],
  "mixed.test": ["93.184.215.14", "10.0.0.1"],
  "mixed-loop.test": ["127.0.0.1", "10.0.0.1"],
  "empty.test": [],
  "public.test": ["93.184.215.14"],
  "multi.test": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14"],
};
const rebinding = { calls: 0 };
async function resolver(host: string): Promise<string[]> {
  resolved.push(host);
  if (host === "rebind.test") return rebinding.calls++ === 0 ? ["127.0.0.1"] : ["10.0.0.1"];
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
}

beforeAll(async () => {
  server = http.createServer(handle);
  server.on("connection", (s: Socket) => {
    connections++;
    openSockets.add(s);
    s.on("close", () => openSockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  PORT = (server.address() as AddressInfo).port;
  BASE = `http://127.0.0.1:${PORT}`;
  sockets.allowed = allow();
});

afterAll(async () => {
  for (const s of openSockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  sockets.attempts.length = 0;
  resolved.length = 0;
  hostHeaders.length = 0;
  connections = 0;
});

// ---------------------------------------------------------------------------------------------

// S1: every form from the checklist, plus the other special-purpose ranges.
const REFUSED_ADDRESSES = [
  "127.0.0.1",
  "127.255.255.254",
  "0.0.0.0",
  "0.1.2.3",
  "10.0.0.1",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.254",
  "169.254.169.254",
  "169.254.0.1",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "192.0.0.8",
  "192.0.2.1",
  "192.88.99.1",
  "198.18.0.1",
  "198.19.255.255",
  "198.51.100.1",
  "203.0.113.1",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  "::",
  "::1",
  "0:0:0:0:0:0:0:1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "0:0:0:0:0:ffff:7f00:1",
  "::ffff:10.0.0.1",
  "::ffff:169.254.169.254",
  "::ffff:0.0.0.0",
  "::127.0.0.1",
  "::7f00:1",
  "::8.8.8.8",
  "::ffff:0:7f00:1",
  "64:ff9b::7f00:1",
  "64:ff9b::127.0.0.1",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b::a00:1",
  "64:ff9b:1::808:808",
  "2002:7f00:1::",
  "2002:7f00:0001::1",
  "2002:a00:1::1",
  "2002:a9fe:a9fe::",
  "2001::1",
  "2001:0:4136:e378:8000:63bf:3fff:fdd2",
  "2001:db8::1",
  "3fff::1",
  "100::1",
  "fc00::1",
  "fd12:3456:789a::1",
  "fe80::1",
  "fe80::1%eth0",
  "febf:ffff::1",
  "ff02::1",
  "ff05::1:3",
  "ff0e::1",
];
// Notations no resolver answers with and the guard must never interpret.
const ODD_NOTATIONS = [
  "0177.0.0.1",
  "0x7f.0.0.1",
  "0x7f.1",
  "0x7f000001",
  "2130706433",
  "017700000001",
  "127.1",
  "127.0.1",
  "127.000.000.001",
  " 127.0.0.1",
  "127.0.0.1 ",
  "[::1]",
  "localhost",
  "1.2.3.4.5",
  "",
];
const PUBLIC_ADDRESSES = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "100.63.255.255",
  "100.128.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "192.167.255.255",
  "192.169.0.0",
  "198.17.255.255",
  "198.20.0.0",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "2001:200::1",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("isPublicAddress", () => {
  it.each(REFUSED_ADDRESSES)("refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(ODD_NOTATIONS)("refuses the odd notation %j", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(PUBLIC_ADDRESSES)("allows the public address %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("parsePreviewUrl", () => {
  it.each([
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://0x7F.0.0.1/",
    "http://127.1/",
    "http://0177.1/",
    "http://127.0.0.1./",
    "http://%31%32%37.0.0.1/",
  ])("the URL parser turns %s into 127.0.0.1, which is refused", (raw) => {
    expect(new URL(raw).hostname).toBe("127.0.0.1");
    expect(parsePreviewUrl(raw)).toBeNull();
  });

  it.each([
    "http://127.0.0.1/",
    "http://[::]/",
    "http://[::1]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.1.2.3/",
    "http://100.64.0.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[ff02::1]/",
    "http://198.18.0.1/",
    "http://192.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://224.0.0.1/",
    "http://localhost/",
    "http://LOCALHOST./",
    "http://app.localhost/",
    "http://intranet/",
    "ftp://example.com/",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "gopher://example.com:70/",
    "ws://example.com/",
    "http://example.com:8080/",
    "https://example.com:8443/",
    "http://example.com:22/",
    "http://example.com:6379/",
    "http://user:pass@example.com/",
    "http://user@example.com/",
    "",
    "not a url",
    "//example.com/",
    `http://${"a".repeat(3000)}.com/`,
  ])("refuses %s", (raw) => {
    expect(parsePreviewUrl(raw)).toBeNull();
  });

  it("accepts http(s) on 80 and 443 with public or DNS hosts, fragment dropped", () => {
    expect(parsePreviewUrl("http://example.com/")?.href).toBe("http://example.com/");
    expect(parsePreviewUrl(" https://Example.COM/a?b=1#frag ")?.href).toBe("https://example.com/a?b=1");
    expect(parsePreviewUrl("http://example.com:80/x")?.href).toBe("http://example.com/x");
    expect(parsePreviewUrl("http://example.com:443/x")?.href).toBe("http://example.com:443/x");
    expect(parsePreviewUrl("https://example.com:443/x")?.href).toBe("https://example.com/x");
    expect(parsePreviewUrl("http://93.184.215.14/")?.href).toBe("http://93.184.215.14/");
    expect(parsePreviewUrl("http://[2606:4700:4700::1111]/")?.href).toBe("http://[2606:4700:4700::1111]/");
  });
});

// ---------------------------------------------------------------------------------------------

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

describe("extractPreview", () => {
  it("resolves relative image URLs against the page and <base>", () => {
    const page = new URL("https://example.com/blog/post/");
    expect(extractPreview(`<meta property="og:image" content="../img/a.png">`, page).image).toBe(
      "https://example.com/blog/img/a.png",
    );
    expect(
      extractPreview(
        `<base href="https://cdn.example.net/assets/"><meta property="og:image" content="cover.png">`,
        page,
      ).image,
    ).toBe("https://cdn.example.net/assets/cover.png");
    expect(extractPreview(`<meta property="og:image" content="http://10.0.0.1/a.png">`, page).image).toBeNull();
  });

  it("is linear on hostile input", () => {
    const started = Date.now();
    extractPreview("<script".repeat(150_000) + "<title>" + "<a".repeat(100_000), new URL("https://example.com/"));
    extractPreview(`<meta content="${"<".repeat(500_000)}`, new URL("https://example.com/"));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("firstHttpUrl", () => {
  it.each([
    ["see https://example.com/a.", "https://example.com/a"],
    ["(https://en.wikipedia.org/wiki/Foo_(bar))", "https://en.wikipedia.org/wiki/Foo_(bar)"],
    ["[link](https://example.com/x)", "https://example.com/x"],
    ["<https://example.com/>", "https://example.com/"],
    ["ftp://files.example.com and then http://y.example.com?q=1, ok", "http://y.example.com?q=1"],
    ["HTTPS://EXAMPLE.COM/Path", "HTTPS://EXAMPLE.COM/Path"],
    ["two: http://a.example.com http://b.example.com", "http://a.example.com"],
  ])("%j → %s", (text, url) => {
    expect(firstHttpUrl(text)).toBe(url);
  });
  it.each(["no links here", "javascript:alert(1)", "xhttp://a.example.com", "http:// nothing", "www.example.com"])(
    "%j → null",
    (text) => {
      expect(firstHttpUrl(text)).toBeNull();
    },
  );
});

// ---------------------------------------------------------------------------------------------

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
