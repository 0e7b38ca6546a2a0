import path from "node:path";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context";
import { notFound } from "../../lib/errors";

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mov": "video/quicktime",
  ".pdf": "application/pdf",
};

/** Stored files. Names are immutable, so public media cache forever; nothing served here can run script. */
export const mediaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/media/*",
    { schema: { hide: true, params: z.object({ "*": z.string().max(500) }) } },
    async (request, reply) => {
      const key = request.params["*"];
      const object = await ctx.storage.get(key).catch(() => null);
      if (!object) throw notFound("File not found");
      const type = TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
      reply
        .header("content-type", type)
        .header("content-length", String(object.size))
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header("cross-origin-resource-policy", "same-origin");
      if (type === "application/octet-stream") reply.header("content-disposition", "attachment");
      return reply.send(object.stream);
    },
  );
};
