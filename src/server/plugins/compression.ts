import zlib from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Brotli at a level that costs about what gzip does (the default, 11, is for build-time assets). */
export const BROTLI_QUICK = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * JSON and pages over 1 KB go compressed to clients that ask (a feed page: about 50 KB → 10 KB).
 * Quick settings: it runs on every read. Built assets are precompressed at build time and sent as
 * they are; event streams take over the socket and are never buffered by it.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: BROTLI_QUICK,
    zlibOptions: { level: 6 },
  });
}
