import dns from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import net, { connect as netConnect } from "node:net";
import { pipeline, type Readable } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "#server/db/client";
import { linkPreviews, type LinkPreview } from "#server/db/schema/posts";
import { bareHost, effectivePort, isPublicAddress, parseHttpUrl, parsePreviewUrl } from "./ip-guard";

export type { LinkPreview };

export const PREVIEW_TIMEOUT_MS = 5_000;
export const PREVIEW_MAX_BYTES = 1024 * 1024;
export const PREVIEW_MAX_REDIRECTS = 3;
export const PREVIEW_CACHE_MS = 24 * 60 * 60 * 1000;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 500;

export type LinkPreviewOptions = {
  /** Whole fetch, all hops included (resolution, connect, headers, body). */
  timeoutMs?: number;
  /** HTML bytes read at most (after decompression). */
  maxBytes?: number;
  maxRedirects?: number;
  logger?: Pick<FastifyBaseLogger, "debug">;
  /**
   * TEST ONLY; production callers never pass it. The one loopback address and port a test
   * server listens on, allowed past the address and port rules when a hop resolves to exactly
   * that address alone. Every other address and port keeps the normal rules.
   */
  testOnlyAllow?: { address: string; port: number };
  /**
   * TEST ONLY: resolves a hostname to its addresses instead of the system resolver, so tests
   * never touch the network. Its answers are checked like the system resolver's.
   */
  resolveHost?: (hostname: string) => Promise<string[]>;
};

class Refused extends Error {}

const ACCEPTED_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = "HearthBot/1.0 (link preview)";

async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  // One address is tried, so IPv4 first: many self-hosted machines have no IPv6 route.
  return [...answers.filter((a) => a.family === 4), ...answers.filter((a) => a.family !== 4)].map((a) => a.address);
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The one address this hop may connect to, or a Refused error. Hostnames are resolved once
 * here and the socket is opened to the returned address, so a second, different DNS answer
 * (rebinding) is never used.
 *
 * Strict on mixed answers: if ANY resolved address is not public the hop is refused, rather
 * than filtered down to the public ones. A name that points inward at all is either an attack
 * or a misconfiguration; refusing it loses nothing worth previewing and leaves no room for
 * "public decoy first, internal address second" tricks across resolvers or retries.
 */
async function checkHop(url: URL, opts: LinkPreviewOptions, signal: AbortSignal) {
  const host = bareHost(url);
  const port = effectivePort(url);
  const addresses = net.isIP(host) ? [host] : await untilAborted((opts.resolveHost ?? systemResolve)(host), signal);
  if (addresses.length === 0) throw new Refused("no address");
  const allow = opts.testOnlyAllow;
  if (allow && addresses.length === 1 && addresses[0] === allow.address && port === allow.port) {
    return { address: addresses[0], port };
  }
  if (port !== 80 && port !== 443) throw new Refused("port");
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad !== undefined) throw new Refused(`address ${bad}`);
  return { address: addresses[0], port };
}

/** One GET, on a socket opened to the checked address; Host and TLS name stay the URL's host. */
function get(url: URL, target: { address: string; port: number }, signal: AbortSignal): Promise<IncomingMessage> {
  const secure = url.protocol === "https:";
  const host = bareHost(url);
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      {
        method: "GET",
        protocol: url.protocol,
        host,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        headers: {
          host: url.host,
          "user-agent": USER_AGENT,
          accept: "text/html,application/xhtml+xml;q=0.9",
          "accept-encoding": "gzip, deflate, br",
        },
        signal,
        // No agent: every request gets its own socket, opened here, to the checked address.
        createConnection: () =>
          secure
            ? tlsConnect({
                host: target.address,
                port: target.port,
                // SNI and certificate checks use the hostname (an IP literal is checked as itself).
                servername: net.isIP(host) ? undefined : host,
                ALPNProtocols: ["http/1.1"],
              })
            : netConnect({ host: target.address, port: target.port }),
      },
      resolve,
    );
    req.on("error", reject);
    req.end();
  });
}

/** The decoded body, read until maxBytes or the end of <head>, whichever comes first. */
async function readHead(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = String(res.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  let body: Readable = res;
  if (encoding !== "identity" && encoding !== "") {
    const decoder =
      encoding === "gzip" || encoding === "x-gzip"
        ? zlib.createGunzip()
        : encoding === "deflate"
          ? zlib.createInflate()
          : encoding === "br"
            ? zlib.createBrotliDecompress()
            : null;
    if (!decoder) throw new Refused(`content-encoding ${encoding}`);
    // Decompression output counts against maxBytes, so a small bomb stops at the cap.
    body = pipeline(res, decoder, () => {});
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let tail = "";
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const take = chunk.subarray(0, maxBytes - total);
      chunks.push(take);
      total += take.length;
      if (total >= maxBytes) break;
      const window = tail + take.toString("latin1");
      if (/<\/head\s*>/i.test(window)) break;
      tail = window.slice(-16);
    }
  } finally {
    body.destroy();
    res.destroy();
  }
  return Buffer.concat(chunks);
}

function decodeBody(buf: Buffer, contentType: string): string {
  let charset = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (!charset) {
    const start = buf.subarray(0, 2048).toString("latin1");
    charset = /<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]+)/i.exec(start)?.[1];
  }
  try {
    return new TextDecoder(charset ?? "utf-8").decode(buf);
  } catch {
    return new TextDecoder("utf-8").decode(buf);
  }
}

/**
 * The preview of one page, fetched by the server under the SSRF rules: http/https on ports 80
 * and 443 only; every hop's addresses resolved once, all of them public, and the socket opened
 * to the checked address; at most maxRedirects redirects, each re-checked; one total timeout;
 * at most maxBytes of HTML. Null on any refusal or failure; never throws.
 */
export async function fetchLinkPreview(rawUrl: string, opts: LinkPreviewOptions = {}): Promise<LinkPreview | null> {
  const timeoutMs = opts.timeoutMs ?? PREVIEW_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? PREVIEW_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? PREVIEW_MAX_REDIRECTS;
  const requested = parseHttpUrl(rawUrl);
  if (!requested) {
    opts.logger?.debug({ url: rawUrl }, "link preview refused: not an http(s) URL");
    return null;
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  let current = requested;
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await checkHop(current, opts, controller.signal);
      const res = await get(current, target, controller.signal);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = res.headers.location;
        res.destroy();
        if (redirects >= maxRedirects) throw new Refused("too many redirects");
        let next: URL | null = null;
        try {
          next = location ? parseHttpUrl(new URL(location, current).href) : null;
        } catch {
          next = null;
        }
        if (!next) throw new Refused("bad redirect location");
        current = next;
        continue;
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw new Refused(`status ${status}`);
      }
      const contentType = String(res.headers["content-type"] ?? "");
      const mime = contentType.split(";")[0].trim().toLowerCase();
      if (!ACCEPTED_TYPES.has(mime)) {
        res.destroy();
        throw new Refused(`content-type ${mime || "(none)"}`);
      }
      const html = decodeBody(await readHead(res, maxBytes), contentType);
      const fields = extractPreview(html, current);
      if (!fields.title && !fields.description && !fields.image) return null;
      return {
        url: requested.href,
        title: fields.title || bareHost(requested),
        description: fields.description,
        image: fields.image,
      };
    }
  } catch (err) {
    const reason = err instanceof Refused ? `refused: ${err.message}` : `failed: ${(err as Error)?.message ?? err}`;
    opts.logger?.debug({ url: rawUrl, at: current.href }, `link preview ${reason}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Extraction: a small linear scanner over the HTML (no regex backtracking over the whole body).

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
};

/** HTML character references: numeric ones and the common named ones; unknown names stay. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,9}|[a-zA-Z]{2,8});?/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? whole;
  });
}

const RAW_TEXT = new Set(["script", "style", "noscript", "template", "textarea", "iframe", "xmp"]);

/** Removes tags (and the contents of script-like elements); linear in the input. */
function stripTags(s: string): string {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf("<", i);
    if (lt < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, lt);
    if (!/[a-zA-Z/!?]/.test(s[lt + 1] ?? "")) {
      out += "<";
      i = lt + 1;
      continue;
    }
    const gt = s.indexOf(">", lt);
    if (gt < 0) break; // an unterminated tag: drop the rest
    const name = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(s.slice(lt, lt + 32))?.[1]?.toLowerCase();
    i = gt + 1;
    if (name && RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = i;
      const m = close.exec(s);
      i = m ? m.index + m[0].length : s.length;
    }
  }
  return out;
}

function truncate(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * Markup or an attribute value made into plain text: tags stripped, entities decoded, any tag
 * the decoding produced stripped too, control and bidi-override characters removed, whitespace
 * collapsed, length capped.
 */
export function toPlainText(raw: string, max: number): string {
  const text = stripTags(decodeEntities(stripTags(raw.slice(0, max * 20))))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return truncate(text, max);
}

/** An image URL for the browser to load later: http(s), resolved against the page, never fetched here. */
function imageUrl(value: string | undefined, base: URL): string | null {
  if (!value) return null;
  const v = decodeEntities(value).trim();
  if (!v || v.length > 2048) return null;
  let resolved: string;
  try {
    resolved = new URL(v, base).href;
  } catch {
    return null;
  }
  // Same rules as a page link (no private hosts, no odd ports): viewers' browsers load it.
  return parsePreviewUrl(resolved)?.href ?? null;
}

type Attrs = Record<string, string>;

/** Attributes of a start tag from just after its name; returns them and the index after '>'. */
function readAttributes(html: string, from: number): { attrs: Attrs; end: number } | null {
  const attrs: Attrs = {};
  let i = from;
  const n = html.length;
  const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f";
  for (;;) {
    while (i < n && (isSpace(html[i]) || html[i] === "/")) i++;
    if (i >= n) return null;
    if (html[i] === ">") return { attrs, end: i + 1 };
    const nameStart = i;
    while (i < n && !isSpace(html[i]) && html[i] !== "/" && html[i] !== ">" && (html[i] !== "=" || i === nameStart)) {
      i++;
    }
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(html[i])) i++;
    let value = "";
    if (html[i] === "=") {
      i++;
      while (i < n && isSpace(html[i])) i++;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(html[i]) && html[i] !== ">") i++;
        value = html.slice(start, i);
      }
    }
    // Raw: each consumer decodes once (toPlainText, imageUrl), so "&amp;lt;" stays "&lt;".
    if (!(name in attrs)) attrs[name] = value;
  }
}

/** Title, description and image from Open Graph, Twitter card, <title> and meta description. */
export function extractPreview(
  html: string,
  pageUrl: URL,
): { title: string; description: string; image: string | null } {
  const meta = new Map<string, string>();
  let title: string | null = null;
  let base = pageUrl;
  const tagName = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    tagName.lastIndex = lt;
    const m = tagName.exec(html);
    if (!m) {
      i = lt + 1;
      continue;
    }
    const closing = m[1] === "/";
    const name = m[2].toLowerCase();
    const parsed = readAttributes(html, lt + m[0].length);
    if (!parsed) break;
    i = parsed.end;
    if (closing) {
      if (name === "head") break;
      continue;
    }
    if (name === "meta") {
      const key = (parsed.attrs.property ?? parsed.attrs.name ?? "").trim().toLowerCase();
      if (key && parsed.attrs.content !== undefined && !meta.has(key)) meta.set(key, parsed.attrs.content);
    } else if (name === "base" && parsed.attrs.href && base === pageUrl) {
      try {
        base = new URL(decodeEntities(parsed.attrs.href), pageUrl);
      } catch {
        // keep the page URL
      }
    } else if (name === "title" || RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = i;
      const c = close.exec(html);
      const end = c ? c.index : n;
      if (name === "title" && title === null) title = html.slice(i, Math.min(end, i + 20_000));
      i = c ? c.index + c[0].length : n;
    }
  }
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)?.trim()).find((v) => v);
  return {
    title: toPlainText(first("og:title", "twitter:title") ?? title ?? "", TITLE_MAX),
    description: toPlainText(first("og:description", "twitter:description", "description") ?? "", DESCRIPTION_MAX),
    image:
      [meta.get("og:image"), meta.get("og:image:url"), meta.get("og:image:secure_url"), meta.get("twitter:image")]
        .concat(meta.get("twitter:image:src"))
        .map((v) => imageUrl(v, base))
        .find((v) => v !== null) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Posts: which URL to preview, and the cache.

/** The link_previews key for a URL: parsed form (host lowercased), fragment dropped. */
export function previewCacheKey(raw: string): string | null {
  return parseHttpUrl(raw)?.href ?? null;
}

const inFlight = new Map<string, Promise<LinkPreview | null>>();

/**
 * A URL's preview through the link_previews cache: an answer younger than 24 h, a cached null
 * included (so a failing site is not fetched on every post), is returned without fetching;
 * otherwise the page is fetched and the answer stored. URLs that can be refused without DNS
 * (bad scheme or port, private IP literal, localhost) return null and are not stored.
 * Concurrent calls for one key in this process share one fetch.
 */
export async function getLinkPreview({
  db,
  url,
  options = {},
  maxAgeMs = PREVIEW_CACHE_MS,
}: {
  db: Queryable;
  url: string;
  options?: LinkPreviewOptions;
  maxAgeMs?: number;
}): Promise<LinkPreview | null> {
  const key = previewCacheKey(url);
  if (!key) return null;
  if (!options.testOnlyAllow && !parsePreviewUrl(key)) return null;
  const [row] = await db
    .select({ preview: linkPreviews.preview })
    .from(linkPreviews)
    .where(
      sql`${linkPreviews.url} = ${key} and ${linkPreviews.fetchedAt} > now() - make_interval(secs => ${maxAgeMs / 1000})`,
    );
  if (row) return row.preview ?? null;
  const running = inFlight.get(key);
  if (running) return running;
  const work = (async () => {
    const preview = await fetchLinkPreview(key, options);
    await db
      .insert(linkPreviews)
      .values({ url: key, preview })
      .onConflictDoUpdate({ target: linkPreviews.url, set: { preview, fetchedAt: sql`now()` } });
    return preview;
  })();
  inFlight.set(key, work);
  try {
    return await work;
  } finally {
    inFlight.delete(key);
  }
}
