import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "./errors";

export type ByteRange = { start: number; end: number };
export type StoredObject = {
  stream: Readable;
  /** Bytes in `stream` (the range's length when a range was asked for). */
  size: number;
  /** Bytes of the whole object. */
  totalSize: number;
  range?: ByteRange;
};
export type ObjectInfo = { size: number; contentType?: string };

/**
 * Where files live: local disk under DATA_DIR/media, or an S3-compatible service (R2, MinIO, AWS).
 * Keys are made by the server only (`assertSafeKey`). Every backend writes atomically: an object
 * is visible whole or not at all, also when the body stream fails half-way (size limit, client
 * gone, crash).
 */
export type Storage = {
  kind: "disk" | "s3";
  /** Writes the whole body; a failing stream leaves nothing behind. Resolves with the bytes written. */
  put: (key: string, body: Buffer | Readable, contentType: string) => Promise<{ size: number }>;
  /** The object, or only the bytes start..end inclusive; null when missing. */
  get: (key: string, range?: ByteRange) => Promise<StoredObject | null>;
  head: (key: string) => Promise<ObjectInfo | null>;
  /** Removes one object; missing is fine. */
  delete: (key: string) => Promise<void>;
  /** Removes every object under `prefix/` (a community's or a user's folder). */
  deletePrefix: (prefix: string) => Promise<void>;
  /** Where the web loads a key from: always the server's own `/media/{key}` (it checks access). */
  publicUrl: (key: string) => string;
  /** A short-lived GET URL straight to the service (S3), or null where the server streams the bytes itself (disk). */
  signedGetUrl: (key: string, ttlSeconds: number, contentType: string) => Promise<string | null>;
  /**
   * A short-lived PUT URL straight to the service for a body of exactly `size` bytes of `contentType`
   * (S3), or null where the client PUTs to the server (disk).
   */
  presignedPut: (key: string, contentType: string, size: number, ttlSeconds: number) => Promise<string | null>;
  /** Connection check for /api/upload/health. */
  check: () => Promise<boolean>;
};

const KEY_RE = /^[a-z0-9-]+(\/[A-Za-z0-9_.-]+)+$/;
const PREFIX_RE = /^[a-z0-9-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Keys are made by the server; this refuses anything that could leave the storage root. */
export function assertSafeKey(key: string, re = KEY_RE): void {
  if (!re.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
    throw new AppError("BAD_REQUEST", "Invalid storage key");
  }
}
export const assertSafePrefix = (prefix: string) => assertSafeKey(prefix, PREFIX_RE);

export function createDiskStorage(root: string): Storage {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    kind: "disk",
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside the target, then renamed: a crash never leaves a half-written file visible.
      const tmp = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        await pipeline(source, createWriteStream(tmp, { flush: true }));
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return { size: (await stat(target)).size };
    },
    async get(key, range) {
      let target: string;
      try {
        target = file(key);
      } catch {
        return null;
      }
      try {
        const info = await stat(target);
        if (!info.isFile()) return null;
        if (range) {
          const end = Math.min(range.end, info.size - 1);
          return {
            stream: createReadStream(target, { start: range.start, end }),
            size: end - range.start + 1,
            totalSize: info.size,
            range: { start: range.start, end },
          };
        }
        return { stream: createReadStream(target), size: info.size, totalSize: info.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async head(key) {
      try {
        const info = await stat(file(key));
        return info.isFile() ? { size: info.size } : null;
      } catch (err) {
        if (err instanceof AppError || (err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
    async deletePrefix(prefix) {
      assertSafePrefix(prefix);
      await rm(path.join(root, prefix), { recursive: true, force: true });
    },
    publicUrl: (key) => `/media/${key}`,
    signedGetUrl: async () => null,
    presignedPut: async () => null,
    async check() {
      await mkdir(root, { recursive: true });
      const probe = await open(path.join(root, `.probe-${process.pid}`), "w");
      await probe.close();
      await rm(path.join(root, `.probe-${process.pid}`), { force: true });
      return true;
    },
  };
}

/** Removes temporary files older than a day that a crash left beside their targets. */
export async function sweepDiskTemporaries(root: string, olderThanMs = 24 * 3600_000): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith(".tmp")) {
        const info = await stat(p).catch(() => null);
        if (info && Date.now() - info.mtimeMs > olderThanMs) {
          await rm(p, { force: true });
          removed++;
        }
      }
    }
  };
  await walk(root);
  return removed;
}

export type S3Settings = {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/** The storage the configuration names: S3-compatible when a bucket is configured, else local disk. */
export async function createStorage(config: { dataDir: string; s3?: S3Settings }): Promise<Storage> {
  if (config.s3) {
    const { createS3Storage } = await import("./storage-s3");
    return createS3Storage(config.s3);
  }
  return createDiskStorage(path.join(config.dataDir, "media"));
}
