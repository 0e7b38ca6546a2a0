import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll } from "vitest";
import type { S3Settings } from "#server/lib/storage";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";

// Shared by uploads.test.ts and uploads-limits.test.ts: the fixtures, the app of the backend being
// tested (one describe.each block at a time) and helpers that act through it.
// ---------------------------------------------------------------------------------------------
// Fixtures, made here so every byte is known.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A "pixel flood": a tiny PNG whose header declares side × side pixels. */
export function pixelFlood(side = 60000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 1 × 1 GIF with `frames` frames. */
export function manyFrames(frames: number): Buffer {
  const header = Buffer.from([
    ...Buffer.from("GIF89a", "latin1"),
    1,
    0,
    1,
    0,
    0x80,
    0,
    0, // 1 × 1, a global table of 2 colours
    0,
    0,
    0,
    255,
    255,
    255,
  ]);
  const frame = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

export const noise = (w: number, h: number) =>
  sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } });
/** An MP4 file header (ftyp box, brand mp42) and `size` bytes in all. */
export const mp4 = (size = 256 * 1024) => {
  const box = Buffer.from("000000186674797069736f6d0000020069736f6d6d703432", "hex");
  return Buffer.concat([box, randomBytes(size - box.length)]);
};
export const pdf = () =>
  Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
export const evilSvg = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`,
);

export let jpeg: Buffer;
/** Makes the JPEG fixture before the file's tests. */
export function useJpeg() {
  beforeAll(async () => {
    jpeg = await noise(1200, 900)
      .jpeg({ quality: 80 })
      .withExif({ IFD0: { Copyright: "hearth-secret-exif" } })
      .toBuffer();
  });
}

// ---------------------------------------------------------------------------------------------

export type Backend = { name: "disk" | "s3"; settings?: S3Settings };

export async function storedKeys(t: TestApp, settings?: S3Settings): Promise<string[]> {
  if (settings) {
    const client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    client.destroy();
    return keys.sort();
  }
  const root = path.join(t.config.dataDir, "media");
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return files
    .filter((f) => f.isFile())
    .map((f) => path.relative(root, path.join(f.parentPath, f.name)))
    .sort();
}

// The app of the backend under test, set up by useBackend in each block of a describe.each.
export let t: TestApp;
export let owner: Awaited<ReturnType<typeof signedInUser>>;
export let member: Awaited<ReturnType<typeof signedInUser>>;
export let outsider: Awaited<ReturnType<typeof signedInUser>>;
export let community: { id: string; slug: string };

/** Starts an app on the given backend, with an owner, a member and an outsider of one community. */
export function useBackend(backend: Backend) {
  beforeAll(async () => {
    t = await createTestApp(backend.settings ? { s3: backend.settings } : {});
    owner = await signedInUser(t);
    member = await signedInUser(t);
    outsider = await signedInUser(t);
    community = (
      await api(t.app).post("/api/communities", { name: `Uploads ${backend.name}` }, { cookie: owner.cookie })
    ).body;
    await api(t.app).post(`/api/communities/${community.id}/join`, {}, { cookie: member.cookie });
  });
  afterAll(() => t.close());
}

export const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
export const post = (cookie: string | undefined, file: { name: string; type: string; data: Buffer }, fields = {}) =>
  upload(t, "/api/upload", cookie, file, fields);
export const forPosts = () => ({ communityId: community.id, uploadType: "posts" });
/** The bytes behind a /media URL, following S3's signed redirect. */
export const fetchMedia = async (url: string, cookie?: string) => {
  const res = await get(url, cookie);
  if (res.statusCode === 302) {
    const signed = await fetch(res.headers.location as string);
    return {
      status: signed.status,
      type: signed.headers.get("content-type"),
      body: Buffer.from(await signed.arrayBuffer()),
      res,
    };
  }
  return { status: res.statusCode, type: res.headers["content-type"] as string, body: res.rawPayload, res };
};
