import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { maxBytesOf, UPLOAD_KINDS, UPLOAD_TYPES } from "#shared/uploads";
import type { AppContext } from "#server/context";
import { AppError } from "#server/lib/errors";
import { errorResponses, uploadResult } from "#server/lib/schemas";
import { fieldOf, filePart } from "#server/lib/uploads";
import { completeDirectUpload, presign, storageHealth, upload } from "./uploads.service";

const uploadType = z.enum(UPLOAD_TYPES);

/** SPEC §7 own endpoints: uploads through the server, presigned direct uploads, and the storage health check. */
export const uploadRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/api/upload",
    {
      schema: {
        tags: ["uploads"],
        summary:
          "Upload a file (multipart: optional fields communityId, uploadType posts|courses and key from presigned-url, sent before the field `file`)",
        description:
          "Without communityId: an image of one's own. With it: a post or course file of that community (images, video, documents). The type is decided from the content; images are re-encoded into original, medium and thumbnail variants.",
        consumes: ["multipart/form-data"],
        response: { 200: uploadResult, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const part = await filePart(request, maxBytesOf(UPLOAD_KINDS.posts));
      const type = fieldOf(part, "uploadType");
      if (type !== undefined && !uploadType.safeParse(type).success) {
        part.file.resume();
        throw new AppError("VALIDATION", "uploadType must be posts or courses");
      }
      return upload(ctx, viewer, part.file, {
        communityId: fieldOf(part, "communityId") || undefined,
        uploadType: type as (typeof UPLOAD_TYPES)[number] | undefined,
        key: fieldOf(part, "key") || undefined,
        originalName: part.filename,
      });
    },
  );

  app.get(
    "/api/upload/health",
    {
      schema: {
        tags: ["uploads"],
        summary: "Which storage is in use and whether it answers (r2Configured: S3-compatible storage is configured)",
        response: {
          200: z.object({
            ok: z.boolean(),
            storage: z.enum(["disk", "s3"]),
            r2Configured: z.boolean(),
            directUploads: z.boolean(),
          }),
        },
      },
    },
    async () => storageHealth(ctx),
  );

  app.post(
    "/api/upload/presigned-url",
    {
      schema: {
        tags: ["uploads"],
        summary: "Reserve a key for a post or course file; with S3 and a known size, a URL to PUT it to directly",
        body: z.object({
          fileName: z.string().min(1).max(255),
          fileType: z.string().min(1).max(200),
          communityId: z.string().min(1).max(120),
          uploadType,
          fileSize: z.number().int().min(1).optional(),
        }),
        response: {
          200: z.object({
            useSupabase: z.literal(false),
            isDirectUpload: z.boolean(),
            uploadUrl: z.string(),
            key: z.string(),
            fileUrl: z.string(),
            expiresAt: z.string(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => presign(ctx, await ctx.requireViewer(request), request.body),
  );

  app.post(
    "/api/upload/complete",
    {
      schema: {
        tags: ["uploads"],
        summary: "After a direct PUT: check the stored object (size, type from its bytes) and make it available",
        body: z.object({ key: z.string().min(1).max(500) }),
        response: { 200: uploadResult, ...errorResponses },
      },
    },
    async (request) => completeDirectUpload(ctx, await ctx.requireViewer(request), request.body.key),
  );
};
