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
import { extractPreview } from "./link-preview-extract";

export type { LinkPreview };
export { DESCRIPTION_MAX, TITLE_MAX, decodeEntities, extractPreview, toPlainText } from "./link-preview-extract";

export const PREVIEW_TIMEOUT_MS = 5_000;
export const PREVIEW_MAX_BYTES = 1024 * 1024;
export const PREVIEW_MAX_REDIRECTS = 3;
export const PREVIEW_CACHE_MS = 24 * 60 * 60 * 1000;

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
