import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Permission } from "#shared/roles";
import {
  acceptedExtensions,
  FILE_KINDS,
  type FileKind,
  canonicalMime,
  extensionForMime,
  kindOfMime,
  MB,
  UPLOAD_KINDS,
  UPLOAD_MESSAGES as UM,
  type UploadType,
} from "#shared/uploads";
import type { AppContext, Viewer } from "#server/context";
import { mediaFiles } from "#server/db/schema/index";
import { requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";

import {
  checkFileName,
  checkQuota,
  receiveUpload,
  sniff,
  type UploadResult,
  type UploadTarget,
} from "#server/lib/uploads";

/** How long a presigned upload (and its reserved key) stays valid. */
export const PRESIGN_TTL_SECONDS = 15 * 60;

const PERMISSION_FOR: Record<UploadType, Permission> = { posts: "create_post", courses: "manage_courses" };
const PURPOSE_FOR = { posts: "post", courses: "course" } as const;

/** A community's upload may be made by a member with the right to post there (posts) or to build courses (courses). */
async function communityTarget(ctx: AppContext, viewer: Viewer, communityId: string, uploadType: UploadType) {
  const access = await requireCommunity({
    db: ctx.db,
    idOrSlug: communityId,
    userId: viewer.id,
    privateAs: "not_found",
  });
  requirePermission(access.role, PERMISSION_FOR[uploadType]);
  return access.community.id;
}

/** Where a new upload goes, checked for the viewer. */
export async function uploadTarget(
  ctx: AppContext,
  viewer: Viewer,
  input: { communityId?: string; uploadType?: UploadType; originalName?: string },
): Promise<UploadTarget> {
  checkFileName(input.originalName);
  if (!input.communityId) {
    // A personal upload: an image of one's own, served publicly.
    return {
      base: `user-uploads/${viewer.id}/${randomUUID()}`,
      ownerId: viewer.id,
      communityId: null,
      purpose: "personal",
      kinds: UPLOAD_KINDS.personal,
      originalName: input.originalName,
    };
  }
  const uploadType = input.uploadType ?? "posts";
  const communityId = await communityTarget(ctx, viewer, input.communityId, uploadType);
  return {
    base: `community-assets/${communityId}/${uploadType}/${randomUUID()}`,
    ownerId: viewer.id,
    communityId,
    purpose: PURPOSE_FOR[uploadType],
    kinds: UPLOAD_KINDS[uploadType],
    originalName: input.originalName,
  };
}

/**
 * The multipart POST: a new file, or the file for a key reserved by a presigned-url answer (the
 * key is then used up, whatever happens to the upload).
 */
export async function upload(
  ctx: AppContext,
  viewer: Viewer,
  stream: Readable,
  input: { communityId?: string; uploadType?: UploadType; key?: string; originalName?: string },
): Promise<UploadResult> {
  if (!input.key) return receiveUpload(ctx, stream, await uploadTarget(ctx, viewer, input));
  const reserved = await takeReservation(ctx, viewer, input.key);
  const kind = kindOfMime(reserved.contentType)!;
  const result = await receiveUpload(ctx, stream, {
    base: reserved.key.slice(0, -path.extname(reserved.key).length),
    ownerId: viewer.id,
    communityId: reserved.communityId,
    purpose: reserved.purpose,
    kinds: [kind],
    originalName: reserved.originalName ?? undefined,
    reservedId: reserved.id,
    expectKey: kind === "image" ? undefined : reserved.key,
  });
  return result;
}

/**
 * Claims the viewer's reservation of `key` (pending → processing, so it is used once) and returns
 * it; refuses unknown, foreign or expired keys.
 */
async function takeReservation(ctx: AppContext, viewer: Viewer, key: string) {
  const [row] = await ctx.db
    .update(mediaFiles)
    .set({ status: "processing" })
    .where(
      and(
        eq(mediaFiles.key, key),
        eq(mediaFiles.ownerId, viewer.id),
        eq(mediaFiles.status, "pending"),
        gt(mediaFiles.createdAt, new Date(Date.now() - PRESIGN_TTL_SECONDS * 1000)),
      ),
    )
    .returning();
  if (!row) throw new AppError("VALIDATION", UM.keyExpired);
  return row;
}

/**
 * Reserves a key for an upload. With S3 and a video or document of known size, the browser PUTs
 * straight to the service (then calls complete); otherwise it POSTs the file here with the key.
 * Images always come through the server, which re-encodes them.
 */
export async function presign(
  ctx: AppContext,
  viewer: Viewer,
  input: { fileName: string; fileType: string; communityId: string; uploadType: UploadType; fileSize?: number },
) {
  checkFileName(input.fileName);
  const kinds = UPLOAD_KINDS[input.uploadType];
  const kind = kindOfMime(input.fileType);
  if (!kind || !kinds.includes(kind)) throw new AppError("VALIDATION", UM.invalidFileType(acceptedExtensions(kinds)));
  const limit = FILE_KINDS[kind].maxMb * MB;
  if (input.fileSize !== undefined && input.fileSize > limit) {
    throw new AppError("PAYLOAD_TOO_LARGE", UM.fileSizeExceeds(FILE_KINDS[kind].maxMb));
  }
  const communityId = await communityTarget(ctx, viewer, input.communityId, input.uploadType);
  await checkQuota(ctx, viewer.id, input.fileSize ?? 0);
  // Reservations nobody used within their time are dropped (a trigger removes any object behind them).
  await ctx.db
    .delete(mediaFiles)
    .where(
      and(
        eq(mediaFiles.ownerId, viewer.id),
        eq(mediaFiles.status, "pending"),
        lt(mediaFiles.createdAt, new Date(Date.now() - PRESIGN_TTL_SECONDS * 1000)),
      ),
    );
  const base = `community-assets/${communityId}/${input.uploadType}/${randomUUID()}`;
  // Signed as the browser will send it (a direct PUT must match); stored files get the canonical extension.
  const mime = input.fileType.toLowerCase().split(";")[0].trim();
  const key = kind === "image" ? `${base}.webp` : `${base}.${extensionForMime(mime)}`;
  const direct =
    kind !== "image" && input.fileSize !== undefined
      ? await ctx.storage.presignedPut(key, mime, input.fileSize, PRESIGN_TTL_SECONDS)
      : null;
  await ctx.db.insert(mediaFiles).values({
    key,
    ownerId: viewer.id,
    communityId,
    purpose: PURPOSE_FOR[input.uploadType],
    contentType: mime,
    size: input.fileSize ?? 0,
    originalName: input.fileName,
    status: "pending",
  });
  return {
    useSupabase: false as const,
    isDirectUpload: direct !== null,
    uploadUrl: direct ?? "/api/upload",
    key,
    fileUrl: ctx.storage.publicUrl(key),
    expiresAt: new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000).toISOString(),
  };
}

/**
 * After a direct PUT to S3: the object is checked as an upload through the server would be (its
 * size, and its type from its first bytes) and becomes ready; anything else is deleted.
 */
export async function completeDirectUpload(ctx: AppContext, viewer: Viewer, key: string): Promise<UploadResult> {
  const [row] = await ctx.db
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.key, key), eq(mediaFiles.ownerId, viewer.id), eq(mediaFiles.status, "pending")));
  if (!row) throw new AppError("VALIDATION", UM.keyExpired);
  const kind = kindOfMime(row.contentType) as FileKind;
  const refuse = async (error: AppError) => {
    await ctx.db.delete(mediaFiles).where(eq(mediaFiles.id, row.id));
    return error;
  };
  const info = await ctx.storage.head(key);
  if (!info) throw new AppError("VALIDATION", "The file has not been uploaded yet");
  if (info.size === 0) throw await refuse(new AppError("VALIDATION", UM.emptyFile));
  if (info.size > FILE_KINDS[kind].maxMb * MB) {
    throw await refuse(new AppError("PAYLOAD_TOO_LARGE", UM.fileSizeExceeds(FILE_KINDS[kind].maxMb)));
  }
  const object = await ctx.storage.get(key, { start: 0, end: 64 * 1024 - 1 });
  const chunks: Buffer[] = [];
  for await (const chunk of object!.stream) chunks.push(chunk as Buffer);
  const found = await sniff(Buffer.concat(chunks));
  if (!found || found.mime !== canonicalMime(row.contentType) || !key.endsWith(`.${found.ext}`)) {
    throw await refuse(new AppError("VALIDATION", UM.invalidFileType(acceptedExtensions([kind]))));
  }
  await ctx.db.update(mediaFiles).set({ status: "ready", size: info.size }).where(eq(mediaFiles.id, row.id));
  return { url: ctx.storage.publicUrl(key), path: key, key, size: info.size, type: found.mime };
}

export async function storageHealth(ctx: AppContext) {
  const ok = await ctx.storage.check().catch(() => false);
  return {
    ok,
    storage: ctx.storage.kind,
    r2Configured: ctx.storage.kind === "s3",
    directUploads: ctx.storage.kind === "s3",
  };
}
