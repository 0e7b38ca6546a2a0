import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { Config } from "#server/config";
import { errorBody } from "#server/lib/errors";
import { loadFirstViewRenderer } from "#server/lib/first-view";
import { createPageShell } from "#server/lib/page-shell";
import { hasSessionCookie } from "#server/lib/session";
import { BROTLI_QUICK, pickEncoding } from "./compression";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The built web app (vite build); beside it, in ../ssr, the same app built to draw first views. */
export const WEB_DIST = path.join(root, "dist/web");

/**
 * The built web app's files, and the single-page app's shell for every other GET that is not under
 * /api, /assets, /media or /dev (the not-found handler); without a build, a JSON 404 for everything.
 */
export async function registerWebShell(app: FastifyInstance, opts: { config: Config; webDist: string }): Promise<void> {
  const { config, webDist } = opts;
  const webBuilt = config.serveWeb && existsSync(path.join(webDist, "index.html"));
  if (webBuilt) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      wildcard: false,
      index: false,
      // Vite's manifest (.vite/) is for the server (lib/page-shell.ts), not for browsers.
      dotfiles: "ignore",
      // The build writes .br and .gz beside each text file (scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        } else {
          res.header("cache-control", "no-cache");
        }
      },
    });
  }

  const pageShell = webBuilt ? createPageShell(webDist) : null;
  const firstView =
    webBuilt && config.firstView ? await loadFirstViewRenderer(app, path.join(webDist, "../ssr")) : null;
  app.setNotFoundHandler(async (request, reply) => {
    const isPage = request.method === "GET" && !/^\/(api|assets|media|dev)(\/|$|\?)/.test(request.url);
    if (!isPage || !pageShell) {
      return reply.status(404).send(errorBody("NOT_FOUND", `No route ${request.method} ${request.url.split("?")[0]}`));
    }
    // Every other GET is a page of the single-page app, with hints for what that page loads first.
    const pathname = request.url.split("?")[0];
    const signedIn = hasSessionCookie(request);
    const view = firstView ? await firstView(request) : null;
    reply
      // A signed-in visitor's first view is theirs alone: no shared cache keeps it.
      .header("cache-control", signedIn ? "private, no-cache" : "no-cache")
      .header("vary", "cookie, accept-encoding")
      .type("text/html; charset=utf-8");
    // The not-found handler is not a route, so the compression hook does not reach it: compress here.
    const html = pageShell(pathname, signedIn, view);
    const encoding = pickEncoding(request.headers["accept-encoding"]);
    if (encoding === "br")
      return reply.header("content-encoding", "br").send(zlib.brotliCompressSync(html, BROTLI_QUICK));
    if (encoding === "gzip") return reply.header("content-encoding", "gzip").send(zlib.gzipSync(html, { level: 6 }));
    return reply.send(html);
  });
}
