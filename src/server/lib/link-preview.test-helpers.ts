import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { LinkPreviewOptions } from "./link-preview";

// The loopback server and test DNS of link-preview.test.ts. Its mocks of node:net and node:tls
// stay in the test file, where vi.mock is hoisted.

// ---------------------------------------------------------------------------------------------
// A loopback HTTP server that counts connections and requests per path.

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
export const hits = new Map<string, number>();
export const hostHeaders: string[] = [];
export let connections = 0;
let server: http.Server;
export let PORT = 0;
export let BASE = "";
const openSockets = new Set<Socket>();
export const streamed = { bytes: 0, closed: false };

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
export const opts = (extra: LinkPreviewOptions = {}): LinkPreviewOptions => ({
  testOnlyAllow: allow(),
  resolveHost: resolver,
  timeoutMs: 2_000,
  ...extra,
});

// Test DNS: never the network. Unknown names fail like NXDOMAIN.
export const resolved: string[] = [];
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
export const rebinding = { calls: 0 };
export async function resolver(host: string): Promise<string[]> {
  resolved.push(host);
  if (host === "rebind.test") return rebinding.calls++ === 0 ? ["127.0.0.1"] : ["10.0.0.1"];
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
}

/**
 * Starts the server before the file's tests and stops it after; before each test, clears the
 * counters and the record of socket attempts, and lets the fetcher connect to the server alone.
 */
export function useTestServer(sockets: { attempts: unknown[]; allowed: null | { address: string; port: number } }) {
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
}
