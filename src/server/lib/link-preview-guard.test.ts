import { describe, expect, it } from "vitest";
import { firstUrl as firstHttpUrl } from "#shared/posts";
import { isPublicAddress, parsePreviewUrl } from "./ip-guard";
import { extractPreview } from "./link-preview";

// The address guard, URL parsing and HTML extraction, which open no connection; the fetcher
// itself, with its mocked sockets, is tested in link-preview.test.ts.

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
