import { randomUUID } from "node:crypto";
import path from "node:path";
import { Readable, Transform, type TransformCallback } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import {
  acceptedExtensions,
  canonicalMime,
  extensionForMime,
  DAILY_UPLOAD_BYTES,
  FILE_KINDS,
  type FileKind,
  kindOfMime,
  MB,
  UPLOAD_MESSAGES as UM,
} from "#shared/uploads";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import { jobs, mediaFiles } from "#server/db/schema/index";
import { AppError } from "./errors";
import { inspectImage, renderVariants } from "./images";
import { RATE_RULES } from "./rate-limit";
import { sweepDiskTemporaries } from "./storage";

export type MediaPurpose = (typeof mediaFiles.$inferInsert)["purpose"];

/** What every upload answers (SPEC §3 uploaded file result); images add their variants' URLs. */
export type UploadResult = {
  url: string;
  path: string;
  key: string;
  size: number;
  type: string;
  variants?: { original: string; medium: string; thumbnail: string };
};

/** Room for the multipart boundary and the small fields around a file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const SNIFF_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number, message?: string) =>
  new AppError("PAYLOAD_TOO_LARGE", message ?? UM.fileSizeExceeds(Math.round(maxBytes / MB)));

/** Refuses names that try to be paths or carry control characters (the key is always made by the server). */
export function checkFileName(name: string | undefined): void {
  if (!name) return;
  // eslint-disable-next-line no-control-regex
  if (name.length > 255 || /[\u0000-\u001f\u007f/\\]/.test(name) || name === "." || name === "..") {
    throw new AppError("VALIDATION", "Invalid file name");
  }
}

/**
 * The one file part of a multipart request, before its bytes are read. A Content-Length already
 * above the limit is refused at once, without reading the body. Fields must come before the file.
 */
export async function filePart(
  request: FastifyRequest,
  maxBytes: number,
  messages: { missing?: string; tooLarge?: string } = {},
): Promise<MultipartFile> {
  if (!request.isMultipart()) throw new AppError("VALIDATION", messages.missing ?? UM.noFile);
  const length = Number(request.headers["content-length"] ?? 0);
  if (length > maxBytes + MULTIPART_OVERHEAD) throw tooLarge(maxBytes, messages.tooLarge);
  // One byte over the limit reaches the caller's counter, which refuses it while streaming.
  // preservePath: the name as sent, so a name that tries to be a path is refused, not quietly cut.
  const part = await request.file({
    preservePath: true,
    limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 4096 },
  });
  if (!part) throw new AppError("VALIDATION", messages.missing ?? UM.noFile);
  checkFileName(part.filename);
  return part;
}

/** A small file's bytes (an SVG icon), read with the size enforced while streaming. */
export async function readFilePart(
  request: FastifyRequest,
  maxBytes: number,
  messages: { missing?: string; tooLarge?: string } = {},
): Promise<Buffer> {
  const part = await filePart(request, maxBytes, messages);
  const buffer = await toBuffer(limited(part.file, maxBytes, () => tooLarge(maxBytes, messages.tooLarge)).stream);
  if (buffer.length === 0) throw new AppError("VALIDATION", UM.emptyFile);
  return buffer;
}

/** A field sent before the file, as text. */
export function fieldOf(part: MultipartFile, name: string): string | undefined {
  const f = part.fields[name];
  const one = Array.isArray(f) ? f[0] : f;
  return one && one.type === "field" && typeof one.value === "string" ? one.value : undefined;
}

/** Passes bytes through and fails the stream as soon as more than `max` went by. */
export class ByteLimit extends Transform {
  bytes = 0;
  constructor(
    private max: number,
    private error: () => Error,
  ) {
    super();
  }
  /** Lowers the limit once it is known (after the type was sniffed); bytes already passed count. */
  narrow(max: number, error: () => Error) {
    this.max = max;
    this.error = error;
    if (this.bytes > max) this.destroy(error());
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) return done(this.error());
    done(null, chunk);
  }
}

/** `source` through a ByteLimit, with the source's errors passed on. */
function limited(source: Readable, max: number, error: () => Error) {
  const limit = new ByteLimit(max, error);
  const stream = source.pipe(limit);
  source.on("error", (err) => limit.destroy(err));
  return { stream, limit };
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads the first `n` bytes and gives back a stream that replays them followed by the rest. */
export async function peek(stream: Readable, n: number): Promise<{ head: Buffer; rest: Readable; ended: boolean }> {
  const chunks: Buffer[] = [];
  let have = 0;
  const iterator = stream[Symbol.asyncIterator]();
  let ended = false;
  while (have < n) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    have += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay() {
    yield head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { head: head.subarray(0, n), rest: Readable.from(replay(), { objectMode: false }), ended };
}

export type Sniffed = { kind: FileKind; mime: string; ext: string };

/**
 * The type from the bytes, never from the name or the declared type. Images are only candidates
 * here: they are accepted when sharp decodes and re-encodes them.
 */
export async function sniff(head: Buffer): Promise<Sniffed | null> {
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!found) return null;
  // Word 97-2003 files are OLE compound files; file-type names only the container.
  const mime = found.ext === "cfb" ? "application/msword" : canonicalMime(found.mime);
  const kind = kindOfMime(mime);
  const ext = extensionForMime(mime);
  return kind && ext ? { kind, mime, ext } : null;
}

/** Everything an upload needs to know about where it goes. */
export type UploadTarget = {
  /** The key without extension, e.g. `community-assets/{id}/posts/{uuid}`. */
  base: string;
  ownerId: string;
  communityId: string | null;
  purpose: MediaPurpose;
  kinds: readonly FileKind[];
  /** An overall cap below the kind's own (avatar 5 MB, cover 10 MB). */
  maxBytes?: number;
  tooLargeMessage?: string;
  notAllowedMessage?: string;
  originalName?: string;
  /** A row reserved by a presigned-url answer, which this upload fills in instead of adding one. */
  reservedId?: string;
  /** For a reserved video or document: the key promised, which the content's real type must match. */
  expectKey?: string;
};

const limitFor = (kind: FileKind, target: UploadTarget) =>
  Math.min(FILE_KINDS[kind].maxMb * MB, target.maxBytes ?? Infinity);

/**
 * Streams an upload into storage: sniffs the first bytes, refuses what the target does not take,
 * enforces the kind's size while streaming (video never sits in memory), re-encodes images into
 * variants through the durable queue, and records the file. Nothing is stored when anything fails.
 */
export async function receiveUpload(ctx: AppContext, stream: Readable, target: UploadTarget): Promise<UploadResult> {
  try {
    // A reserved upload was counted when its key was handed out.
    if (!target.reservedId) await checkQuota(ctx, target.ownerId);
    return await receive(ctx, stream, target);
  } catch (err) {
    // A reservation is used up by a failed upload too; its row goes (and with it anything half-made).
    if (target.reservedId) await ctx.db.delete(mediaFiles).where(eq(mediaFiles.id, target.reservedId));
    throw err;
  }
}

/**
 * Per account: at most 300 uploads an hour (with rate limits on) and DAILY_UPLOAD_BYTES in 24 hours,
 * so one account cannot fill the storage with many small files or a few large ones.
 */
export async function checkQuota(ctx: AppContext, ownerId: string, incomingBytes = 0): Promise<void> {
  await ctx.rateLimiter.hit(`upload:${ownerId}`, RATE_RULES.uploadsPerUser);
  const res = await ctx.db.execute<{ used: number }>(sql`
    SELECT coalesce(sum(size), 0)::float8 AS used FROM media_files
     WHERE owner_id = ${ownerId} AND created_at > now() - interval '1 day'`);
  const used = res.rows[0]?.used ?? 0;
  if (used >= DAILY_UPLOAD_BYTES || used + incomingBytes > DAILY_UPLOAD_BYTES) {
    throw new AppError("RATE_LIMITED", UM.dailyQuota, { retryAfter: 3600 });
  }
}

async function receive(ctx: AppContext, stream: Readable, target: UploadTarget): Promise<UploadResult> {
  // Counted from the first byte against the largest limit the target takes, then against the
  // sniffed kind's own limit.
  const overall = Math.max(...target.kinds.map((k) => limitFor(k, target)));
  const { stream: counted, limit: counter } = limited(stream, overall, () => tooLarge(overall, target.tooLargeMessage));
  const { head, rest, ended } = await peek(counted, SNIFF_BYTES);
  if (head.length === 0) throw new AppError("VALIDATION", target.notAllowedMessage ?? UM.emptyFile);
  const found = await sniff(head);
  const keyOf = (ext: string) => `${target.base}.${ext}`;
  if (!found || !target.kinds.includes(found.kind) || (target.expectKey && keyOf(found.ext) !== target.expectKey)) {
    rest.destroy();
    stream.resume();
    throw new AppError("VALIDATION", target.notAllowedMessage ?? UM.invalidFileType(acceptedExtensions(target.kinds)));
  }
  const limit = limitFor(found.kind, target);
  counter.narrow(limit, () => tooLarge(limit, target.tooLargeMessage));
  if (found.kind === "image") return storeImage(ctx, ended ? head : await toBuffer(rest), target);
  const key = keyOf(found.ext);
  const { size } = await ctx.storage.put(key, rest, found.mime);
  const row = {
    key,
    ownerId: target.ownerId,
    communityId: target.communityId,
    purpose: target.purpose,
    contentType: found.mime,
    size,
    originalName: target.originalName ?? null,
    status: "ready" as const,
  };
  if (target.reservedId) await ctx.db.update(mediaFiles).set(row).where(eq(mediaFiles.id, target.reservedId));
  else await ctx.db.insert(mediaFiles).values(row);
  return { url: ctx.storage.publicUrl(key), path: key, key, size, type: found.mime };
}

type VariantJob = { mediaId: string; incoming: string; base: string };

/** How long an inline image job may take before the worker treats its process as gone and runs it. */
const INLINE_LEASE_MS = 2 * 60_000;

/**
 * An image, durably: the raw bytes and a queued job are saved first, then the variants are made
 * (in a bounded pool) and the file turns ready. If the process dies in between, the job worker
 * finishes the work later; until then nothing of it is served.
 */
export async function storeImage(ctx: AppContext, buffer: Buffer, target: UploadTarget): Promise<UploadResult> {
  await inspectImage(buffer, target.notAllowedMessage ?? UM.notImage);
  const incoming = `incoming/${randomUUID()}`;
  await ctx.storage.put(incoming, buffer, "application/octet-stream");
  const keys = variantKeys(target.base);
  const { mediaId, jobId } = await ctx.db.transaction(async (tx) => {
    const values = {
      key: keys.original,
      ownerId: target.ownerId,
      communityId: target.communityId,
      purpose: target.purpose,
      contentType: "image/webp",
      size: buffer.length,
      variants: { medium: keys.medium, thumbnail: keys.thumbnail },
      originalName: target.originalName ?? null,
      status: "processing" as const,
    };
    const [row] = target.reservedId
      ? await tx
          .update(mediaFiles)
          .set(values)
          .where(eq(mediaFiles.id, target.reservedId))
          .returning({ id: mediaFiles.id })
      : await tx.insert(mediaFiles).values(values).returning({ id: mediaFiles.id });
    const payload: VariantJob = { mediaId: row.id, incoming, base: target.base };
    const [job] = await tx
      .insert(jobs)
      .values({ queue: "media.variants", payload, runAt: new Date(Date.now() + INLINE_LEASE_MS) })
      .returning({ id: jobs.id });
    return { mediaId: row.id, jobId: job.id };
  });
  try {
    const size = await makeVariants(ctx, { mediaId, incoming, base: target.base }, buffer);
    return {
      url: ctx.storage.publicUrl(keys.original),
      path: keys.original,
      key: keys.original,
      size,
      type: "image/webp",
      variants: {
        original: ctx.storage.publicUrl(keys.original),
        medium: ctx.storage.publicUrl(keys.medium),
        thumbnail: ctx.storage.publicUrl(keys.thumbnail),
      },
    };
  } finally {
    // Done either way (made, or refused and removed): the worker has nothing left to do.
    await ctx.db
      .update(jobs)
      .set({ doneAt: new Date() })
      .where(and(eq(jobs.id, jobId), sql`done_at IS NULL`));
  }
}

/** The key of the row a variant belongs to (`x-medium.webp` and `x-thumbnail.webp` belong to `x.webp`). */
export const originalKeyOf = (key: string) => key.replace(/-(medium|thumbnail)\.webp$/, ".webp");

/** The key of the stored file's row a /media URL (any variant) names, or null for any other URL. */
export const rowKeyOfUrl = (url: string | null | undefined) =>
  url?.startsWith("/media/") ? originalKeyOf(url.slice("/media/".length)) : null;

/**
 * Links uploads, named by their /media URLs (any variant), to what they belong to, so deleting that
 * deletes them (cascade, then the trigger on media_files). Only files of the community that nothing
 * holds yet are taken, and with `ownerId` only that person's.
 */
export async function linkUploads(
  db: Queryable,
  urls: readonly (string | null | undefined)[],
  link: { postId: string } | { lessonId: string } | { courseId: string },
  scope: { communityId: string; ownerId?: string },
) {
  const keys = urls.filter((u): u is string => !!u?.startsWith("/media/")).map((u) => originalKeyOf(u.slice(7)));
  if (keys.length === 0) return;
  await db
    .update(mediaFiles)
    .set(link)
    .where(
      and(
        inArray(mediaFiles.key, keys),
        eq(mediaFiles.communityId, scope.communityId),
        scope.ownerId ? eq(mediaFiles.ownerId, scope.ownerId) : undefined,
        isNull(mediaFiles.postId),
        isNull(mediaFiles.lessonId),
        isNull(mediaFiles.courseId),
      ),
    );
}

/** In SQL over media_files `f`: every /media URL under which the row's file is shown. */
const MEDIA_URLS_OF_ROW = sql.raw(
  `ARRAY['/media/' || f.key, '/media/' || (f.variants ->> 'medium'), '/media/' || (f.variants ->> 'thumbnail')]`,
);

export const variantKeys = (base: string) => ({
  original: `${base}.webp`,
  medium: `${base}-medium.webp`,
  thumbnail: `${base}-thumbnail.webp`,
});

/**
 * Renders and stores the variants, then marks the file ready and drops the raw bytes. Safe to run
 * twice (same keys, atomic writes). A file that does not decode is removed with its row.
 */
async function makeVariants(ctx: AppContext, job: VariantJob, bytes?: Buffer): Promise<number> {
  const buffer = bytes ?? (await readAll(ctx, job.incoming));
  if (!buffer) {
    await ctx.db.delete(mediaFiles).where(and(eq(mediaFiles.id, job.mediaId), eq(mediaFiles.status, "processing")));
    return 0;
  }
  const keys = variantKeys(job.base);
  let variants;
  try {
    variants = await renderVariants(buffer, UM.notImage);
  } catch (err) {
    await ctx.db.delete(mediaFiles).where(eq(mediaFiles.id, job.mediaId));
    await ctx.storage.delete(job.incoming);
    throw err;
  }
  await Promise.all([
    ctx.storage.put(keys.original, variants.original, "image/webp"),
    ctx.storage.put(keys.medium, variants.medium, "image/webp"),
    ctx.storage.put(keys.thumbnail, variants.thumbnail, "image/webp"),
  ]);
  const done = await ctx.db
    .update(mediaFiles)
    .set({ status: "ready", size: variants.original.length })
    .where(eq(mediaFiles.id, job.mediaId))
    .returning({ id: mediaFiles.id });
  if (done.length === 0) {
    // The row went meanwhile (its post or community was deleted): the files go too.
    await Promise.all(Object.values(keys).map((k) => ctx.storage.delete(k)));
  }
  await ctx.storage.delete(job.incoming);
  return variants.original.length;
}

async function readAll(ctx: AppContext, key: string): Promise<Buffer | null> {
  const object = await ctx.storage.get(key);
  return object ? toBuffer(object.stream) : null;
}

/** The job handlers of this module: finishing interrupted images, and removing deleted files. */
export function mediaJobHandlers(ctx: AppContext) {
  return {
    "media.variants": async (payload: Record<string, unknown>) => {
      try {
        await makeVariants(ctx, payload as VariantJob);
      } catch (err) {
        // A file that does not decode was removed; there is nothing to retry.
        if (!(err instanceof AppError)) throw err;
      }
    },
    "media.delete": async (payload: Record<string, unknown>) => {
      const keys = (payload.keys as string[] | undefined) ?? [];
      const prefixes = (payload.prefixes as string[] | undefined) ?? [];
      for (const key of keys) await ctx.storage.delete(key).catch(ignoreBadKey);
      for (const prefix of prefixes) await ctx.storage.deletePrefix(prefix).catch(ignoreBadKey);
    },
  };
}

const ignoreBadKey = (err: unknown) => {
  if (!(err instanceof AppError)) throw err;
};

/**
 * Housekeeping, hourly in every process that runs jobs: reservations nobody used, post uploads no
 * post took within a day, avatars, icons and covers an hour old that their profile or community
 * does not show (a replacement interrupted between upload and swap, or left by an older version),
 * and temporary files a crash left on disk. Rows go; the trigger on media_files queues their
 * files' removal.
 */
export async function sweepMedia(ctx: AppContext, opts: { dataDir?: string } = {}) {
  const stale = await ctx.db.execute<{ n: number }>(sql`
    WITH gone AS (
      DELETE FROM media_files f
       WHERE (f.status = 'pending' AND f.created_at < now() - interval '1 hour')
          OR (f.purpose = 'post' AND f.post_id IS NULL AND f.status = 'ready' AND f.created_at < now() - interval '1 day')
          OR (f.purpose = 'avatar' AND f.status = 'ready' AND f.created_at < now() - interval '1 hour'
              AND NOT EXISTS (
                SELECT 1 FROM "user" u LEFT JOIN user_profiles p ON p.user_id = u.id
                 WHERE u.id = f.owner_id
                   AND (u.image = ANY(${MEDIA_URLS_OF_ROW}) OR p.avatar_url = ANY(${MEDIA_URLS_OF_ROW}))))
          OR (f.purpose IN ('icon', 'cover') AND f.status = 'ready' AND f.created_at < now() - interval '1 hour'
              AND NOT EXISTS (
                SELECT 1 FROM communities c
                 WHERE c.id = f.community_id
                   AND (c.icon_url = ANY(${MEDIA_URLS_OF_ROW}) OR c.logo_url = ANY(${MEDIA_URLS_OF_ROW})
                        OR c.cover_url = ANY(${MEDIA_URLS_OF_ROW}) OR c.image_url = ANY(${MEDIA_URLS_OF_ROW}))))
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  const temporaries =
    ctx.storage.kind === "disk" && opts.dataDir ? await sweepDiskTemporaries(path.join(opts.dataDir, "media")) : 0;
  return { rows: stale.rows[0]?.n ?? 0, temporaries };
}
