import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server } from "#server/test/s3-server";
import { AppError } from "./errors";
import { createDiskStorage, type S3Settings, type Storage } from "./storage";
import { createS3Storage } from "./storage-s3";

const MB = 1024 * 1024;

type Backend = {
  storage: Storage;
  /** Every name the backend holds under `prefix`: files (temporaries included) on disk, object keys in S3. */
  list: (prefix: string) => Promise<string[]>;
  s3?: S3Settings;
  /** S3: multipart uploads neither completed nor aborted. */
  pendingUploads?: () => Promise<string[]>;
  close: () => Promise<void>;
};

async function diskBackend(): Promise<Backend> {
  const root = await mkdtemp(path.join(os.tmpdir(), "hearth-storage-"));
  const list = async (prefix: string) => {
    const entries = await readdir(path.join(root, prefix), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
  };
  return {
    storage: createDiskStorage(root),
    list,
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function s3Backend(): Promise<Backend> {
  const server = await startS3Server();
  const { settings } = server;
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  const list = async (prefix: string) => {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: prefix, ContinuationToken }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  };
  return {
    storage: createS3Storage(settings),
    list,
    s3: settings,
    pendingUploads: server.pendingUploads,
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}

/** A deterministic body of `total` bytes in `chunk`-sized pieces, made as it is read; never whole in memory. */
function generated(total: number, chunk = 256 * 1024, failAfter?: { bytes: number; error: Error }) {
  const hash = createHash("sha256");
  async function* produce() {
    let sent = 0;
    let n = 0;
    while (sent < total) {
      if (failAfter && sent >= failAfter.bytes) throw failAfter.error;
      const len = Math.min(chunk, total - sent);
      const piece = Buffer.alloc(len, n++ % 251);
      piece.writeUInt32BE(sent >>> 0, 0);
      hash.update(piece);
      sent += len;
      // Lets the consumer apply backpressure as a socket would.
      await new Promise((r) => setImmediate(r));
      yield piece;
    }
  }
  return { stream: Readable.from(produce(), { objectMode: false }), digest: () => hash.digest("hex") };
}

async function readAll(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

async function digestOf(stream: Readable): Promise<{ digest: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { digest: hash.digest("hex"), bytes };
}

const UNSAFE_KEYS = ["../x", "a/../../b", "/abs", "a/b\u0000c", "a/b\nc", "a/\u001fb", "a/b\u007fc", "x", "a//b"];

describe.each([
  { kind: "disk", start: diskBackend },
  { kind: "s3", start: s3Backend },
])("storage contract ($kind)", ({ kind, start }) => {
  let backend: Backend;
  let storage: Storage;

  beforeAll(async () => {
    backend = await start();
    storage = backend.storage;
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("has the expected kind and serves through /media", () => {
    expect(storage.kind).toBe(kind);
    expect(storage.publicUrl("community-1/posts/a.webp")).toBe("/media/community-1/posts/a.webp");
  });

  it("round-trips a Buffer", async () => {
    const body = Buffer.from("Hello from Hearth\n".repeat(100));
    await expect(storage.put("roundtrip/hello.txt", body, "text/plain")).resolves.toEqual({ size: body.length });
    const object = await storage.get("roundtrip/hello.txt");
    expect(object).not.toBeNull();
    expect(object!.size).toBe(body.length);
    expect(object!.totalSize).toBe(body.length);
    expect(object!.range).toBeUndefined();
    expect((await readAll(object!.stream)).equals(body)).toBe(true);
  });

  it("overwrites an existing key", async () => {
    await storage.put("roundtrip/over.txt", Buffer.from("first"), "text/plain");
    await storage.put("roundtrip/over.txt", Buffer.from("second!"), "text/plain");
    expect((await readAll((await storage.get("roundtrip/over.txt"))!.stream)).toString()).toBe("second!");
  });

  it("streams a 20 MB Readable in and out", async () => {
    const total = 20 * MB;
    const body = generated(total);
    await expect(storage.put("stream/big.bin", body.stream, "application/octet-stream")).resolves.toEqual({
      size: total,
    });
    expect((await storage.head("stream/big.bin"))?.size).toBe(total);
    const object = await storage.get("stream/big.bin");
    expect(object!.size).toBe(total);
    expect(object!.totalSize).toBe(total);
    expect(await digestOf(object!.stream)).toEqual({ digest: body.digest(), bytes: total });
  });

  it("streams a small Readable (less than one part)", async () => {
    const body = generated(100_000, 10_000);
    await expect(storage.put("stream/small.bin", body.stream, "application/octet-stream")).resolves.toEqual({
      size: 100_000,
    });
    expect(await digestOf((await storage.get("stream/small.bin"))!.stream)).toEqual({
      digest: body.digest(),
      bytes: 100_000,
    });
  });

  // 10 MB is past the first 8 MB part of an S3 multipart upload; 1 MB fails before any part is sent.
  it.each([
    { failAt: 10 * MB, total: 20 * MB },
    { failAt: 1 * MB, total: 3 * MB },
  ])("leaves nothing behind when the body fails after $failAt bytes", async ({ failAt, total }) => {
    const error = new Error("client went away");
    const body = generated(total, 256 * 1024, { bytes: failAt, error });
    const key = `failed-${failAt}/upload.bin`;
    const outcome = await storage.put(key, body.stream, "application/octet-stream").then(
      () => null,
      (err: unknown) => err,
    );
    expect(outcome).toBe(error);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.head(key)).toBeNull();
    // Disk: no stray .tmp beside the target. S3: no object (a multipart upload shows none until completed).
    expect(await backend.list(`failed-${failAt}`)).toEqual([]);
    // S3: the multipart upload was aborted, so its parts are gone too.
    if (backend.pendingUploads) expect(await backend.pendingUploads()).toEqual([]);
  });

  it("keeps the previous object when an overwrite fails", async () => {
    await storage.put("failed-over/file.bin", Buffer.from("kept"), "application/octet-stream");
    const error = new Error("size limit reached");
    const body = generated(12 * MB, 256 * 1024, { bytes: 9 * MB, error });
    await expect(storage.put("failed-over/file.bin", body.stream, "application/octet-stream")).rejects.toBe(error);
    expect((await readAll((await storage.get("failed-over/file.bin"))!.stream)).toString()).toBe("kept");
    expect(await backend.list("failed-over")).toEqual(["failed-over/file.bin"]);
  });

  it("returns exactly the asked range and the whole size", async () => {
    const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    await storage.put("range/data.bin", body, "application/octet-stream");

    const middle = await storage.get("range/data.bin", { start: 100, end: 199 });
    expect(middle).toMatchObject({ size: 100, totalSize: 1000, range: { start: 100, end: 199 } });
    expect((await readAll(middle!.stream)).equals(body.subarray(100, 200))).toBe(true);

    // The probe a video player sends first. (Not bytes=0-0: s3rver reads an end of 0 as "to the end"
    // and answers with the whole object; S3 and R2 send the one byte.)
    const first = await storage.get("range/data.bin", { start: 0, end: 1 });
    expect(first).toMatchObject({ size: 2, totalSize: 1000, range: { start: 0, end: 1 } });
    expect((await readAll(first!.stream)).equals(body.subarray(0, 2))).toBe(true);

    // An end past the object is cut to its last byte.
    const tail = await storage.get("range/data.bin", { start: 990, end: 5000 });
    expect(tail).toMatchObject({ size: 10, totalSize: 1000, range: { start: 990, end: 999 } });
    expect((await readAll(tail!.stream)).equals(body.subarray(990))).toBe(true);

    expect(await storage.get("range/missing.bin", { start: 0, end: 10 })).toBeNull();
  });

  it("heads an object, and null when missing", async () => {
    await storage.put("head/pic.webp", Buffer.alloc(1234, 7), "image/webp");
    const info = await storage.head("head/pic.webp");
    expect(info?.size).toBe(1234);
    // The disk keeps no content type; S3 stores the one given to put.
    if (kind === "s3") expect(info?.contentType).toBe("image/webp");
    expect(await storage.head("head/missing.webp")).toBeNull();
    expect(await storage.get("head/missing.webp")).toBeNull();
  });

  it("deletes one object; deleting a missing one is fine", async () => {
    await storage.put("del/one.txt", Buffer.from("1"), "text/plain");
    await storage.put("del/two.txt", Buffer.from("2"), "text/plain");
    await storage.delete("del/one.txt");
    expect(await storage.get("del/one.txt")).toBeNull();
    expect(await storage.head("del/two.txt")).not.toBeNull();
    await expect(storage.delete("del/one.txt")).resolves.toBeUndefined();
    await expect(storage.delete("del/never.txt")).resolves.toBeUndefined();
  });

  it("deletePrefix removes everything under the prefix and nothing outside it", async () => {
    const inside = ["c1/a.txt", "c1/sub/b.txt", "c1/sub/deeper/c.txt"];
    const outside = ["c10/x.txt", "c2/y.txt", "c1x/z.txt"];
    for (const key of [...inside, ...outside]) await storage.put(key, Buffer.from(key), "text/plain");
    await storage.deletePrefix("c1");
    for (const key of inside) expect(await storage.head(key)).toBeNull();
    for (const key of outside) expect(await storage.head(key)).not.toBeNull();
    expect(await backend.list("c1/")).toEqual([]);
    await expect(storage.deletePrefix("c1")).resolves.toBeUndefined();
    await expect(storage.deletePrefix("nothing-here")).resolves.toBeUndefined();

    // A nested prefix (a user's folder inside a community).
    await storage.put("c3/users/u1/a.txt", Buffer.from("a"), "text/plain");
    await storage.put("c3/users/u2/b.txt", Buffer.from("b"), "text/plain");
    await storage.deletePrefix("c3/users/u1");
    expect(await backend.list("c3")).toEqual(["c3/users/u2/b.txt"]);
  });

  it("deletePrefix removes more objects than one list page or delete batch holds", async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `many/f${String(i).padStart(4, "0")}.txt`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => storage.put(key, Buffer.from("x"), "text/plain")));
    }
    await storage.put("many-kept/keep.txt", Buffer.from("k"), "text/plain");
    expect(await backend.list("many/")).toHaveLength(1003);
    await storage.deletePrefix("many");
    expect(await backend.list("many/")).toEqual([]);
    expect(await storage.head("many-kept/keep.txt")).not.toBeNull();
  });

  it("refuses unsafe keys and prefixes", async () => {
    for (const key of UNSAFE_KEYS) {
      await expect(storage.put(key, Buffer.from("x"), "text/plain"), key).rejects.toBeInstanceOf(AppError);
      await expect(storage.put(key, Readable.from([Buffer.from("x")]), "text/plain"), key).rejects.toBeInstanceOf(
        AppError,
      );
      expect(await storage.get(key), key).toBeNull();
      expect(await storage.get(key, { start: 0, end: 1 }), key).toBeNull();
      expect(await storage.head(key), key).toBeNull();
      await expect(storage.delete(key), key).rejects.toBeInstanceOf(AppError);
    }
    for (const prefix of ["", "..", "../x", "/abs", "a/..", "a/b\u0000"]) {
      await expect(storage.deletePrefix(prefix), prefix).rejects.toBeInstanceOf(AppError);
    }
  });

  if (kind === "disk") {
    it("has no direct URLs and checks the directory", async () => {
      expect(await storage.signedGetUrl("x/a.webp", 60, "image/webp")).toBeNull();
      expect(await storage.presignedPut("x/a.webp", "image/webp", 10, 60)).toBeNull();
      expect(await storage.check()).toBe(true);
    });
  }

  if (kind === "s3") {
    it("presignedPut accepts a PUT of exactly the signed type and length", async () => {
      const body = Buffer.from("a presigned upload to Hearth");
      const url = (await storage.presignedPut("presigned/ok.txt", "text/plain", body.length, 300))!;
      const signed = new URL(url).searchParams.get("X-Amz-SignedHeaders")!.split(";");
      expect(signed).toEqual(expect.arrayContaining(["content-length", "content-type", "host"]));
      expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("300");

      const res = await fetch(url, { method: "PUT", body, headers: { "content-type": "text/plain" } });
      expect(res.status).toBe(200);
      expect((await readAll((await storage.get("presigned/ok.txt"))!.stream)).equals(body)).toBe(true);
      expect(await storage.head("presigned/ok.txt")).toEqual({ size: body.length, contentType: "text/plain" });
    });

    // s3rver itself accepts any SigV4 signature; startS3Server checks presigned signatures the way S3 and
    // R2 do, so these refusals come from the signed Content-Type and Content-Length headers.
    it("presignedPut refuses another Content-Type or length", async () => {
      const body = Buffer.from("0123456789");
      const url = (await storage.presignedPut("presigned/strict.png", "image/png", body.length, 300))!;

      const otherType = await fetch(url, { method: "PUT", body, headers: { "content-type": "text/html" } });
      expect(otherType.status).toBe(403);
      expect(await otherType.text()).toContain("SignatureDoesNotMatch");

      const longer = await fetch(url, {
        method: "PUT",
        body: Buffer.concat([body, Buffer.from("more")]),
        headers: { "content-type": "image/png" },
      });
      expect(longer.status).toBe(403);

      const shorter = await fetch(url, {
        method: "PUT",
        body: body.subarray(0, 5),
        headers: { "content-type": "image/png" },
      });
      expect(shorter.status).toBe(403);

      const tampered = new URL(url);
      tampered.pathname = tampered.pathname.replace("strict.png", "other.png");
      const otherKey = await fetch(tampered, { method: "PUT", body, headers: { "content-type": "image/png" } });
      expect(otherKey.status).toBe(403);

      expect(await storage.head("presigned/strict.png")).toBeNull();
      expect(await storage.head("presigned/other.png")).toBeNull();

      const right = await fetch(url, { method: "PUT", body, headers: { "content-type": "image/png" } });
      expect(right.status).toBe(200);
      expect(await storage.head("presigned/strict.png")).toEqual({ size: 10, contentType: "image/png" });
    });

    it("presignedPut URLs expire", async () => {
      const url = (await storage.presignedPut("presigned/late.txt", "text/plain", 4, 1))!;
      await new Promise((r) => setTimeout(r, 2100));
      const res = await fetch(url, { method: "PUT", body: "late", headers: { "content-type": "text/plain" } });
      expect(res.status).toBe(403);
      expect(await storage.head("presigned/late.txt")).toBeNull();
    });

    it("signedGetUrl serves the object with the requested type; only media shows inline", async () => {
      const body = Buffer.from("not really a picture");
      await storage.put("signed/pic.bin", body, "application/octet-stream");

      const inline = await fetch((await storage.signedGetUrl("signed/pic.bin", 60, "image/webp"))!);
      expect(inline.status).toBe(200);
      expect(inline.headers.get("content-type")).toBe("image/webp");
      expect(inline.headers.get("content-disposition")).toBeNull();
      expect(Buffer.from(await inline.arrayBuffer()).equals(body)).toBe(true);

      const video = await fetch((await storage.signedGetUrl("signed/pic.bin", 60, "video/mp4"))!);
      expect(video.headers.get("content-type")).toBe("video/mp4");
      expect(video.headers.get("content-disposition")).toBeNull();
      await video.arrayBuffer();

      const download = await fetch((await storage.signedGetUrl("signed/pic.bin", 60, "application/pdf"))!);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/pdf");
      expect(download.headers.get("content-disposition")).toBe("attachment");
      expect(Buffer.from(await download.arrayBuffer()).equals(body)).toBe(true);

      const html = await fetch((await storage.signedGetUrl("signed/pic.bin", 60, "text/html"))!);
      expect(html.headers.get("content-disposition")).toBe("attachment");
      await html.arrayBuffer();

      // The signature covers the response overrides: changing one is refused.
      const swapped = new URL((await storage.signedGetUrl("signed/pic.bin", 60, "application/pdf"))!);
      swapped.searchParams.set("response-content-type", "text/html");
      swapped.searchParams.delete("response-content-disposition");
      expect((await fetch(swapped)).status).toBe(403);
    });

    it("direct URLs refuse unsafe keys", async () => {
      await expect(storage.signedGetUrl("../x", 60, "image/webp")).rejects.toBeInstanceOf(AppError);
      await expect(storage.presignedPut("a/../../b", "image/webp", 1, 60)).rejects.toBeInstanceOf(AppError);
    });

    it("check() is true for the bucket, false for a missing bucket or a stopped server", async () => {
      expect(await storage.check()).toBe(true);
      expect(await createS3Storage({ ...backend.s3!, bucket: "no-such-bucket" }).check()).toBe(false);
      const stopped = await startS3Server();
      await stopped.close();
      expect(await createS3Storage(stopped.settings).check()).toBe(false);
    });
  }
});
