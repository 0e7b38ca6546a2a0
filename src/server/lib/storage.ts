import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { AppError } from "./errors";

export type StoredObject = { stream: Readable; size: number };

/** Where files live. Local disk by default; the uploads issue adds an S3-compatible backend behind the same shape. */
export type Storage = {
  kind: "disk" | "s3";
  put: (key: string, body: Buffer, contentType: string) => Promise<void>;
  get: (key: string) => Promise<StoredObject | null>;
  delete: (key: string) => Promise<void>;
  publicUrl: (key: string) => string;
};

const KEY_RE = /^[a-z0-9-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Keys are made by the server; this refuses anything that could leave the storage root. */
export function assertSafeKey(key: string): void {
  if (!KEY_RE.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
    throw new AppError("BAD_REQUEST", "Invalid storage key");
  }
}

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
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, body, { flush: true });
      await rename(tmp, target);
    },
    async get(key) {
      try {
        const target = file(key);
        const info = await stat(target);
        if (!info.isFile()) return null;
        return { stream: createReadStream(target), size: info.size };
      } catch (err) {
        if (err instanceof AppError) return null;
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
    publicUrl: (key) => `/media/${key}`,
  };
}

/** The storage the configuration names (local disk under DATA_DIR/media for now). */
export function createStorage(config: { dataDir: string }): Storage {
  return createDiskStorage(path.join(config.dataDir, "media"));
}
