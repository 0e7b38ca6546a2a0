import net from "node:net";

// Address ranges a server-side fetch must never reach. IPv4 follows the IANA special-purpose
// registry (the ranges that are not globally reachable), plus multicast and 240/4 (which holds
// 255.255.255.255). IPv6 is an allow-list: only global unicast 2000::/3 passes, minus the
// special blocks inside it; the forms that embed an IPv4 address are judged by that address.
const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata at 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast address
];

const BLOCKED_V6: [string, number][] = [
  ["2001::", 23], // IETF protocol assignments, including Teredo 2001::/32 (tunnels to an embedded IPv4)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 segment identifiers
];

const v4Blocked = new net.BlockList();
for (const [address, prefix] of BLOCKED_V4) v4Blocked.addSubnet(address, prefix, "ipv4");
const v6Blocked = new net.BlockList();
for (const [address, prefix] of BLOCKED_V6) v6Blocked.addSubnet(address, prefix, "ipv6");

/** The eight 16-bit words of an IPv6 address that net.isIPv6 already accepted. */
function ipv6Words(ip: string): number[] | null {
  let hex = ip;
  let tail: number[] = [];
  if (hex.includes(".")) {
    const cut = hex.lastIndexOf(":") + 1;
    const o = hex.slice(cut).split(".").map(Number);
    tail = [(o[0] << 8) | o[1], (o[2] << 8) | o[3]];
    hex = hex.slice(0, cut);
  }
  const halves = hex.split("::");
  if (halves.length > 2) return null;
  const words = (s: string) =>
    s
      .split(":")
      .filter((g) => g !== "")
      .map((g) => parseInt(g, 16));
  const head = words(halves[0]);
  const rest = halves.length === 2 ? words(halves[1]) : [];
  const fill = 8 - head.length - rest.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
}

const v4At = (w: number[], i: number) => `${w[i] >> 8}.${w[i] & 255}.${w[i + 1] >> 8}.${w[i + 1] & 255}`;

function isPublicV4(ip: string): boolean {
  return net.isIPv4(ip) && !v4Blocked.check(ip, "ipv4");
}

function isPublicV6(ip: string): boolean {
  const w = ipv6Words(ip);
  if (!w) return false;
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped): a socket to it is a socket to the IPv4 address.
  if (zeros(0, 5) && w[5] === 0xffff) return isPublicV4(v4At(w, 6));
  // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d: never a public destination.
  if (zeros(0, 6)) return false;
  // NAT64 well-known prefix 64:ff9b::/96: the translator connects to the embedded IPv4.
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return isPublicV4(v4At(w, 6));
  // 6to4 2002:aabb:ccdd::/48: the relay connects to the embedded IPv4 aa.bb.cc.dd.
  if (w[0] === 0x2002) return isPublicV4(v4At(w, 1));
  // Outside global unicast: ULA fc00::/7, link-local fe80::/10, multicast ff00::/8, local-use
  // NAT64 64:ff9b:1::/48, IPv4-translated ::ffff:0:0:0/96, discard 100::/64 and the rest.
  if ((w[0] & 0xe000) !== 0x2000) return false;
  const canonical = w.map((x) => x.toString(16)).join(":");
  return !v6Blocked.check(canonical, "ipv6");
}

/**
 * Whether a server-side request may connect to this address. Only the canonical notations
 * pass: dotted-decimal IPv4 without leading zeros, and IPv6 without a zone; anything else
 * (octal, hex, shortened or whole-number IPv4, "fe80::1%eth0", a hostname) is refused.
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== "string") return false;
  switch (net.isIP(ip)) {
    case 4:
      return isPublicV4(ip);
    case 6:
      return !ip.includes("%") && isPublicV6(ip);
    default:
      return false;
  }
}

const MAX_URL_LENGTH = 2048;

/** The URL's host without IPv6 brackets or a trailing dot, lowercase. */
export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

/** The port a request to this URL connects to. */
export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * An http(s) URL without credentials, with a host that can be resolved or is an IP literal,
 * fragment dropped; null for anything else. Says nothing about the port or the address: see
 * parsePreviewUrl. The WHATWG parser has already rewritten every IPv4 notation (2130706433,
 * 0177.0.0.1, 0x7f.1, 127.1) to dotted decimal and refuses hosts that end in a number, so an
 * IP literal reaches the address check in its canonical form.
 */
export function parseHttpUrl(raw: string): URL | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim();
  if (!s || s.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  const host = bareHost(url);
  if (!host) return null;
  if (!net.isIP(host)) {
    // RFC 6761: localhost names are the local machine whatever DNS says.
    if (host === "localhost" || host.endsWith(".localhost")) return null;
    // Single-label names resolve through search domains to intranet hosts.
    if (!host.includes(".")) return null;
    // Defensive: the parser turns numeric hosts into dotted IPv4 or fails; never pass one on.
    if (/^[0-9.]+$/.test(host) || /(^|\.)0x[0-9a-f]*$/i.test(host)) return null;
  }
  url.hash = "";
  return url;
}

/**
 * A URL the server may fetch a preview from, as far as can be told without DNS: http or https,
 * port 80 or 443, no credentials, and an IP-literal host only if it is a public address.
 * Hostnames still need their resolved addresses checked (fetchLinkPreview does that).
 */
export function parsePreviewUrl(raw: string): URL | null {
  const url = parseHttpUrl(raw);
  if (!url) return null;
  const port = effectivePort(url);
  if (port !== 80 && port !== 443) return null;
  const host = bareHost(url);
  if (net.isIP(host) && !isPublicAddress(host)) return null;
  return url;
}
