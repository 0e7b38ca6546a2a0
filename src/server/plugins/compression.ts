import zlib from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Brotli at a level that costs about what gzip does (the default, 11, is for build-time assets). */
export const BROTLI_QUICK = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS = { level: 6 };

/** Answers under this many bytes go as they are: compressing them saves little and costs a hop. */
export const COMPRESS_THRESHOLD = 1024;

const COMPRESSIBLE = /^(?:application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|text\/[\w.+-]+|image\/svg\+xml)/i;

/** The encodings an Accept-Encoding header accepts (a token with q=0 is refused; "*" takes both). */
export function acceptedEncodings(header: string | string[] | undefined): { br: boolean; gzip: boolean } {
  const out = { br: false, gzip: false };
  if (!header) return out;
  const value = Array.isArray(header) ? header.join(",") : header;
  for (const part of value.split(",")) {
    const [raw, ...params] = part.toLowerCase().split(";");
    const token = raw.trim();
    if (params.some((p) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(p))) continue;
    if (token === "br") out.br = true;
    else if (token === "gzip" || token === "x-gzip") out.gzip = true;
    else if (token === "*") out.br = out.gzip = true;
  }
  return out;
}

/** The encoding to answer in: br, else gzip, else none (the server's preference; browsers send both). */
export function pickEncoding(header: string | string[] | undefined): "br" | "gzip" | null {
  const { br, gzip } = acceptedEncodings(header);
  return br ? "br" : gzip ? "gzip" : null;
}

const encode = (encoding: "br" | "gzip", body: Buffer | string) =>
  new Promise<Buffer>((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === "br") zlib.brotliCompress(body, BROTLI_QUICK, done);
    else zlib.gzip(body, GZIP_OPTIONS, done);
  });

/**
 * JSON and text answers over 1 KB go compressed to clients that ask (a feed page: about 50 KB →
 * 10 KB), in one pass on the thread pool: the answer is whole in memory by now, so there is no
 * stream to set up and it leaves in one write. Answers that already carry a Content-Encoding (the
 * build's precompressed assets, a calendar feed's stored gzip), streams (files, event streams) and
 * small ones pass untouched. docs/decisions/0017-request-layers.md.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook(
    "onSend",
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: Error | null, p?: unknown) => void,
    ) => {
      if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return done(null, payload);
      const size = typeof payload === "string" ? Buffer.byteLength(payload) : payload.length;
      if (size < COMPRESS_THRESHOLD || request.method === "HEAD" || reply.hasHeader("content-encoding")) {
        return done(null, payload);
      }
      const type = reply.getHeader("content-type");
      if (typeof type !== "string" || !COMPRESSIBLE.test(type)) return done(null, payload);
      const vary = reply.getHeader("vary");
      if (!vary) reply.header("vary", "accept-encoding");
      else if (!/accept-encoding/i.test(String(vary))) reply.header("vary", `${String(vary)}, accept-encoding`);
      const encoding = pickEncoding(request.headers["accept-encoding"]);
      if (!encoding) return done(null, payload);
      encode(encoding, payload).then(
        (out) => {
          reply.header("content-encoding", encoding);
          reply.removeHeader("content-length");
          done(null, out);
        },
        (err: Error) => done(err),
      );
    },
  );
}
