import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { notFound } from "#server/lib/errors";
import { grantAllows } from "#server/lib/media-grant";
import { assertSafeKey } from "#server/lib/storage";
import { etagOf, mediaAccess, mediaType, parseRange } from "./media.service";

/** Seconds a signed S3 URL stays valid. */
const SIGNED_URL_TTL = 300;

/**
 * Stored files. Names are immutable, so public media cache forever; media of a private community,
 * of a members-only or pending post, or of a course lesson, are checked on every request and
 * revalidated by the browser (no-cache with an ETag), so removal or a community turning private
 * takes effect at once. Nothing served here can run script (sandbox CSP, nosniff).
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.route({
    method: "GET",
    url: "/media/*",
    schema: {
      hide: true,
      params: z.object({ "*": z.string().max(500) }),
      querystring: z.object({ g: z.string().max(80).optional() }),
    },
    handler: async (request, reply) => {
      const key = request.params["*"];
      try {
        assertSafeKey(key);
      } catch {
        throw notFound("File not found");
      }
      const viewer = await ctx.viewer(request);
      let access = await mediaAccess(ctx, key, viewer?.id ?? null);
      // An expiring grant (the invite page of a private community) opens one file.
      if (access === "denied" && grantAllows(ctx.config.authSecret, key, request.query.g)) {
        access =
          (await mediaAccess(ctx, key, null, { ignoreCommunityVisibility: true })) === "denied"
            ? "denied"
            : "restricted";
      }
      // Someone who may not see a file learns nothing about it: the same answer as a missing one.
      if (access === "denied") throw notFound("File not found");
      const type = mediaType(key);
      const etag = etagOf(key);
      reply
        .header("x-content-type-options", "nosniff")
        .header(
          "content-security-policy",
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox",
        )
        .header("cross-origin-resource-policy", "same-origin")
        .header("vary", "Cookie")
        .header("cache-control", access === "public" ? "public, max-age=31536000, immutable" : "private, no-cache")
        .header("etag", etag);
      if (!type.startsWith("image/") && !type.startsWith("video/")) reply.header("content-disposition", "attachment");
      if (request.headers["if-none-match"] === etag) return reply.status(304).send();

      // S3: large media go straight from the service on a short-lived signed URL. Images and SVG
      // stay on this origin so the headers above (the sandbox) always apply to them.
      if (ctx.storage.kind === "s3" && !type.startsWith("image/")) {
        const url = await ctx.storage.signedGetUrl(key, SIGNED_URL_TTL, type);
        if (!url) throw notFound("File not found");
        return reply
          .header("cache-control", access === "public" ? "public, max-age=60" : "private, no-store")
          .redirect(url, 302);
      }

      const info = await ctx.storage.head(key);
      if (!info) throw notFound("File not found");
      reply.header("accept-ranges", "bytes").header("content-type", type);
      const range = parseRange(request.headers.range, info.size);
      if (range === "invalid") {
        return reply.status(416).header("content-range", `bytes */${info.size}`).send();
      }
      if (request.method === "HEAD") {
        return reply.header("content-length", String(info.size)).send();
      }
      const object = await ctx.storage.get(key, range ?? undefined);
      if (!object) throw notFound("File not found");
      reply.header("content-length", String(object.size));
      if (object.range) {
        reply
          .status(206)
          .header("content-range", `bytes ${object.range.start}-${object.range.end}/${object.totalSize}`);
      }
      return reply.send(object.stream);
    },
  });
};
