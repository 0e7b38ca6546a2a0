import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { assertSafeKey, assertSafePrefix, type S3Settings, type Storage } from "./storage";

/** Part size for streamed uploads; with QUEUE_SIZE parts in flight, memory stays near 24 MB per upload. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;
/** The health check gives up after this long instead of hanging /api/upload/health. */
const CHECK_TIMEOUT_MS = 5000;

/** Content types a browser may show inline from a signed URL; anything else downloads. */
const INLINE_TYPE = /^(image|video|audio)\//i;

/** The key is not there. A missing bucket is a configuration error and stays one. */
const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  err.name !== "NoSuchBucket" &&
  (err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata.httpStatusCode === 404);

/**
 * Objects in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO). A PutObject is atomic; a streamed
 * body goes up as a multipart upload, which S3 shows only once it is completed, and which is aborted
 * when the body fails, so a failed write never leaves an object behind.
 */
export function createS3Storage(settings: S3Settings): Storage {
  const client = new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where the API demands them: S3-compatible services differ in what they accept,
    // and an SDK-added checksum in a presigned PUT URL would pin the body to the empty one.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;

  async function putStream(Key: string, body: Readable, ContentType: string): Promise<{ size: number }> {
    // Kept from the body itself, so the caller sees its own error (size limit, client gone) and not
    // whatever the SDK makes of it (lib-storage reports a failed abort over the cause). The listener
    // stays: it also keeps an error the body emits before or after the upload reads it from going
    // unhandled.
    let bodyError: unknown;
    body.on("error", (err: unknown) => {
      bodyError ??= err;
    });
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of body) {
          const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
          size += bytes.length;
          yield bytes;
        }
      })(),
      { objectMode: false },
    );
    const upload = new Upload({
      client,
      params: { Bucket, Key, Body: counted, ContentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // On failure the multipart upload is aborted: its parts are dropped and no object appears.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      counted.destroy();
      if (!body.destroyed) body.destroy();
      throw bodyError ?? err;
    }
    return { size };
  }

  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertSafeKey(key);
      if (!Buffer.isBuffer(body)) return await putStream(key, body, contentType);
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
      );
      return { size: body.length };
    },
    async get(key, range) {
      try {
        assertSafeKey(key);
      } catch {
        return null;
      }
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        const stream = res.Body as Readable;
        const size = res.ContentLength ?? 0;
        if (!range) return { stream, size, totalSize: size };
        // "bytes 0-99/1234"; a service that ignores Range answers 200 with the whole object.
        const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? "");
        if (!match) return { stream, size, totalSize: size, range: { start: 0, end: Math.max(size - 1, 0) } };
        return {
          stream,
          size,
          totalSize: Number(match[3]),
          range: { start: Number(match[1]), end: Number(match[2]) },
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async head(key) {
      try {
        assertSafeKey(key);
      } catch {
        return null;
      }
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: res.ContentLength ?? 0, ...(res.ContentType ? { contentType: res.ContentType } : {}) };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      // S3 answers 204 for a missing key too.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      assertSafePrefix(prefix);
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const res = await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        batch = [];
        if (res.Errors?.length) {
          const first = res.Errors[0];
          throw new Error(
            `Could not delete ${res.Errors.length} object(s) under ${prefix}/, first ${first.Key}: ${first.Code} ${first.Message}`,
          );
        }
      };
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${prefix}/`, ContinuationToken, MaxKeys: DELETE_BATCH }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          batch.push(object.Key);
          if (batch.length >= DELETE_BATCH) await flush();
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      await flush();
    },
    publicUrl(key) {
      assertSafeKey(key);
      return `/media/${key}`;
    },
    async signedGetUrl(key, ttlSeconds, contentType) {
      assertSafeKey(key);
      return await getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: contentType,
          ...(INLINE_TYPE.test(contentType) ? {} : { ResponseContentDisposition: "attachment" }),
        }),
        { expiresIn: ttlSeconds },
      );
    },
    async presignedPut(key, contentType, size, ttlSeconds) {
      assertSafeKey(key);
      return await getSignedUrl(
        client,
        new PutObjectCommand({ Bucket, Key: key, ContentType: contentType, ContentLength: size }),
        // The presigner leaves Content-Type unsigned unless asked; both are signed so the service
        // refuses a PUT of another type or length.
        { expiresIn: ttlSeconds, signableHeaders: new Set(["content-type", "content-length"]) },
      );
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
        return true;
      } catch {
        return false;
      }
    },
  };
}
