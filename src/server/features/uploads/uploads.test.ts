import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { DAILY_UPLOAD_BYTES, UPLOAD_MESSAGES as UM } from "#shared/uploads";
import type { S3Settings } from "#server/lib/storage";
import { sweepMedia } from "#server/lib/uploads";
import { api, createTestApp, multipart, ORIGIN, signedInUser, upload, type TestApp } from "#server/test/harness";
import { startS3Server } from "#server/test/s3-server";

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
function pixelFlood(side = 60000): Buffer {
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
function manyFrames(frames: number): Buffer {
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

const noise = (w: number, h: number) => sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } });
/** An MP4 file header (ftyp box, brand mp42) and `size` bytes in all. */
const mp4 = (size = 256 * 1024) => {
  const box = Buffer.from("000000186674797069736f6d0000020069736f6d6d703432", "hex");
  return Buffer.concat([box, randomBytes(size - box.length)]);
};
const pdf = () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const evilSvg = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`,
);

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await noise(1200, 900)
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Copyright: "hearth-secret-exif" } })
    .toBuffer();
});

// ---------------------------------------------------------------------------------------------

type Backend = { name: "disk" | "s3"; settings?: S3Settings };

async function storedKeys(t: TestApp, settings?: S3Settings): Promise<string[]> {
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

const s3 = await startS3Server();
afterAll(() => s3.close());

describe.each<Backend>([{ name: "disk" }, { name: "s3", settings: s3.settings }])("uploads on $name", (backend) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let member: Awaited<ReturnType<typeof signedInUser>>;
  let outsider: Awaited<ReturnType<typeof signedInUser>>;
  let community: { id: string; slug: string };
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

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  const post = (cookie: string | undefined, file: { name: string; type: string; data: Buffer }, fields = {}) =>
    upload(t, "/api/upload", cookie, file, fields);
  const forPosts = () => ({ communityId: community.id, uploadType: "posts" });
  /** The bytes behind a /media URL, following S3's signed redirect. */
  const fetchMedia = async (url: string, cookie?: string) => {
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

  it("reports which storage is in use", async () => {
    const res = await api(t.app).get("/api/upload/health");
    expect(res.body).toEqual({
      ok: true,
      storage: backend.name,
      r2Configured: backend.name === "s3",
      directUploads: backend.name === "s3",
    });
  });

  it("takes uploads from signed-in users only", async () => {
    expect((await post(undefined, { name: "a.jpg", type: "image/jpeg", data: jpeg })).status).toBe(401);
  });

  it("re-encodes an image into its variants, metadata stripped, and serves them cacheable", async () => {
    const res = await post(member.cookie, { name: "holiday.jpg", type: "image/jpeg", data: jpeg }, forPosts());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "image/webp", path: expect.stringMatching(/\.webp$/) });
    expect(res.body.path).toMatch(new RegExp(`^community-assets/${community.id}/posts/[0-9a-f-]{36}\\.webp$`));
    expect(res.body.url).toBe(`/media/${res.body.path}`);
    expect(res.body.variants.original).toBe(res.body.url);
    const sizes: Record<string, [number, number]> = {
      original: [1200, 900],
      medium: [800, 600],
      thumbnail: [200, 200],
    };
    for (const [name, [w, h]] of Object.entries(sizes)) {
      const file = await get(res.body.variants[name]);
      expect(file.statusCode, name).toBe(200);
      expect(file.headers["content-type"]).toBe("image/webp");
      expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(file.headers["x-content-type-options"]).toBe("nosniff");
      expect(String(file.headers["content-security-policy"])).toContain("sandbox");
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["webp", w, h, undefined]);
      expect(file.rawPayload.includes("hearth-secret-exif")).toBe(false);
      // Revalidation of an immutable name is free.
      expect(
        (await get(res.body.variants[name], undefined, { "if-none-match": file.headers.etag as string })).statusCode,
      ).toBe(304);
    }
    // Nothing of the raw upload is left behind.
    expect((await storedKeys(t, backend.settings)).filter((k) => k.startsWith("incoming/"))).toEqual([]);
  });

  it("stores personal images under the user, and only images", async () => {
    const res = await post(member.cookie, { name: "me.jpg", type: "image/jpeg", data: jpeg });
    expect(res.status).toBe(200);
    expect(res.body.path).toMatch(new RegExp(`^user-uploads/${member.id}/`));
    const video = await post(member.cookie, { name: "v.mp4", type: "video/mp4", data: mp4() });
    expect(video.status).toBe(400);
    expect(video.body.error.message).toBe(UM.invalidFileType([".jpg", ".jpeg", ".png", ".webp", ".gif"]));
  });

  it("streams a video into storage and serves it with ranges", async () => {
    const data = mp4(3 * 1024 * 1024 + 17);
    const res = await post(member.cookie, { name: "clip.mp4", type: "application/octet-stream", data }, forPosts());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "video/mp4", size: data.length });
    expect(res.body.path).toMatch(/\.mp4$/);
    expect(res.body.variants).toBeUndefined();
    const whole = await fetchMedia(res.body.url);
    expect(whole.status).toBe(200);
    expect(whole.type).toBe("video/mp4");
    expect(whole.body.equals(data)).toBe(true);
    if (backend.name === "disk") {
      const part = await get(res.body.url, undefined, { range: "bytes=100-199" });
      expect(part.statusCode).toBe(206);
      expect(part.headers["content-range"]).toBe(`bytes 100-199/${data.length}`);
      expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);
      expect((await get(res.body.url, undefined, { range: "bytes=-10" })).rawPayload.equals(data.subarray(-10))).toBe(
        true,
      );
      expect((await get(res.body.url, undefined, { range: `bytes=${data.length}-` })).statusCode).toBe(416);
    } else {
      // S3: a short-lived signed URL straight to the service, which answers ranges itself.
      const redirect = await get(res.body.url);
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toMatch(/X-Amz-Expires=300/);
      const part = await fetch(redirect.headers.location as string, { headers: { range: "bytes=100-199" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
    }
  });

  it("serves documents as downloads", async () => {
    const res = await post(member.cookie, { name: "notes.pdf", type: "application/pdf", data: pdf() }, forPosts());
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("application/pdf");
    const file = await get(res.body.url);
    if (backend.name === "disk") expect(file.headers["content-disposition"]).toBe("attachment");
    else
      expect(new URL(file.headers.location as string).searchParams.get("response-content-disposition")).toBe(
        "attachment",
      );
  });

  it("lets only members with the right to post upload to a community, and only owners and admins for courses", async () => {
    const image = { name: "a.jpg", type: "image/jpeg", data: jpeg };
    expect((await post(outsider.cookie, image, forPosts())).status).toBe(403);
    expect((await post(member.cookie, image, { communityId: community.id, uploadType: "courses" })).status).toBe(403);
    expect((await post(owner.cookie, image, { communityId: community.id, uploadType: "courses" })).status).toBe(200);
    expect((await post(member.cookie, image, { communityId: community.id, uploadType: "bogus" })).status).toBe(400);
    const secret = (
      await api(t.app).post("/api/communities", { name: `Hidden ${backend.name}` }, { cookie: owner.cookie })
    ).body;
    await api(t.app).patch(`/api/communities/${secret.id}`, { visibility: "private" }, { cookie: owner.cookie });
    const res = await post(member.cookie, image, { communityId: secret.id, uploadType: "posts" });
    expect(res.status).toBe(404);
  });

  describe("bad input: refused with a clear message, nothing stored", () => {
    const cases: [string, () => Promise<{ name: string; type: string; data: Buffer }>, number, string][] = [
      [
        "an SVG sent as image/png",
        async () => ({ name: "x.png", type: "image/png", data: evilSvg }),
        400,
        "Invalid file type",
      ],
      [
        "an HTML/PHP polyglot named .jpg",
        async () => ({
          name: "shell.jpg",
          type: "image/jpeg",
          data: Buffer.from("GIF89a<?php system($_GET['c']); ?><html><script>alert(1)</script></html>"),
        }),
        400,
        UM.notImage,
      ],
      [
        "a truncated image",
        async () => {
          const png = await noise(400, 300).png().toBuffer();
          return { name: "cut.png", type: "image/png", data: png.subarray(0, Math.floor(png.length / 2)) };
        },
        400,
        UM.notImage,
      ],
      [
        "a zero-byte file",
        async () => ({ name: "empty.png", type: "image/png", data: Buffer.alloc(0) }),
        400,
        UM.emptyFile,
      ],
      [
        "a pixel flood PNG (60000 × 60000)",
        async () => ({ name: "flood.png", type: "image/png", data: pixelFlood() }),
        400,
        UM.imageTooLarge,
      ],
      [
        "a GIF of 3,000 frames",
        async () => ({ name: "many.gif", type: "image/gif", data: manyFrames(3000) }),
        400,
        UM.tooManyFrames,
      ],
      [
        "a name that climbs out (../../x.png)",
        async () => ({ name: "../../x.png", type: "image/jpeg", data: jpeg }),
        400,
        "Invalid file name",
      ],
      [
        "a name with control characters",
        async () => ({ name: "a\u0007b.jpg", type: "image/jpeg", data: jpeg }),
        400,
        "Invalid file name",
      ],
      [
        "a shell script named .mp4",
        async () => ({ name: "x.mp4", type: "video/mp4", data: Buffer.from("#!/bin/sh\nrm -rf /\n") }),
        400,
        "Invalid file type",
      ],
    ];
    it.each(cases)("%s", async (_label, make, status, message) => {
      const before = await storedKeys(t, backend.settings);
      const rowsBefore = (await t.database.pool.query("SELECT count(*)::int AS n FROM media_files")).rows[0].n;
      const res = await post(member.cookie, await make(), forPosts());
      expect(res.status).toBe(status);
      expect(res.body.error.message).toContain(message);
      expect(await storedKeys(t, backend.settings)).toEqual(before);
      expect((await t.database.pool.query("SELECT count(*)::int AS n FROM media_files")).rows[0].n).toBe(rowsBefore);
    });

    it("keeps what follows a JPEG's end out of the stored file (a PHP tail)", async () => {
      const tail = Buffer.concat([jpeg, Buffer.from("<?php echo 'pwned'; ?>")]);
      const res = await post(member.cookie, { name: "tail.jpg", type: "image/jpeg", data: tail }, forPosts());
      expect(res.status).toBe(200);
      const file = await get(res.body.url);
      expect(file.rawPayload.includes("<?php")).toBe(false);
    });
  });

  describe("quotas", () => {
    const presignFor = (cookie: string, fileSize: number) =>
      api(t.app).post(
        "/api/upload/presigned-url",
        { fileName: "v.mp4", fileType: "video/mp4", communityId: community.id, uploadType: "posts", fileSize },
        { cookie },
      );

    it("stops an account at its daily bytes", async () => {
      const heavy = await signedInUser(t);
      await api(t.app).post(`/api/communities/${community.id}/join`, {}, { cookie: heavy.cookie });
      await t.database.pool.query(
        `INSERT INTO media_files (key, owner_id, purpose, content_type, size) VALUES ($1, $2, 'personal', 'video/mp4', $3)`,
        [`user-uploads/${heavy.id}/earlier.mp4`, heavy.id, DAILY_UPLOAD_BYTES - 1000],
      );
      // An announced size that would cross the line is refused up front.
      expect((await presignFor(heavy.cookie, 5000)).status).toBe(429);
      expect((await presignFor(heavy.cookie, 500)).status).toBe(200);
      // A streamed upload is refused once the day's bytes are used up (it may overshoot by one file).
      await t.database.pool.query(`UPDATE media_files SET size = size + 1000 WHERE key = $1`, [
        `user-uploads/${heavy.id}/earlier.mp4`,
      ]);
      const res = await post(heavy.cookie, { name: "a.jpg", type: "image/jpeg", data: jpeg }, forPosts());
      expect(res.status).toBe(429);
      expect(res.body.error.message).toBe(UM.dailyQuota);
    });

    it("refuses ten concurrent pixel floods from the header, without a memory spike", async () => {
      const before = process.memoryUsage().rss;
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          post(member.cookie, { name: "flat.png", type: "image/png", data: pixelFlood(14000) }, forPosts()),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(400));
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    });
  });

  describe("sizes", () => {
    it("refuses an image over 10 MB and a video over 500 MB by their declared length, before reading the body", async () => {
      const big = await post(
        member.cookie,
        { name: "big.jpg", type: "image/jpeg", data: Buffer.concat([jpeg, randomBytes(10 * 1024 * 1024)]) },
        forPosts(),
      );
      expect(big.status).toBe(413);
      expect(big.body.error.message).toBe(UM.fileSizeExceeds(10));
      const avatar = await upload(t, "/api/me/avatar", member.cookie, {
        name: "a.jpg",
        type: "image/jpeg",
        data: Buffer.concat([jpeg, randomBytes(5 * 1024 * 1024)]),
      });
      expect(avatar.status).toBe(413);
      expect(avatar.body.error.message).toBe(MSG.avatarTooLarge);
    });

    it("answers 413 while a chunked upload is still streaming, before the body ends", async () => {
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = t.app.server.address() as AddressInfo;
      const body = multipart("clip.mp4", "video/mp4", Buffer.alloc(0), forPosts());
      // The multipart head with the fields and the file's headers, then the file for ever.
      const text = body.payload.toString("latin1");
      const fileStart = text.indexOf("\r\n\r\n", text.lastIndexOf("filename=")) + 4;
      const head = body.payload.subarray(0, fileStart);
      let sent = 0;
      // A raw socket: the answer is read as it comes, whatever happens to the writing side once the
      // server stops reading and closes (EPIPE or a reset, depending on timing and Node version).
      const result = await new Promise<{ status: number; connection: string | undefined; sent: number }>(
        (resolve, reject) => {
          const socket = net.connect(port, "127.0.0.1");
          let answer = "";
          let done = false;
          const finish = () => {
            const m = /^HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/.exec(answer);
            if (!m || done) return;
            done = true;
            const connection = /\r\nconnection: *([^\r]+)/i.exec(answer)?.[1];
            resolve({ status: Number(m[1]), connection, sent });
            socket.destroy();
          };
          socket.on("data", (d) => {
            answer += d.toString("latin1");
            finish();
          });
          socket.on("error", () => finish());
          socket.on("close", () => (done ? undefined : reject(new Error(`closed without an answer: ${answer}`))));
          const chunked = (b: Buffer) =>
            Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
          socket.write(
            [
              "POST /api/me/avatar HTTP/1.1",
              `host: 127.0.0.1:${port}`,
              `origin: ${ORIGIN}`,
              `cookie: ${member.cookie}`,
              `content-type: ${body.contentType}`,
              "transfer-encoding: chunked",
              "",
              "",
            ].join("\r\n"),
          );
          socket.write(chunked(head));
          let first = true;
          const pump = () => {
            if (done || sent > 200 * 1024 * 1024 || socket.destroyed) return;
            const piece = first ? Buffer.concat([jpeg, randomBytes(1024 * 1024)]) : randomBytes(1024 * 1024);
            first = false;
            sent += piece.length;
            if (socket.write(chunked(piece))) setImmediate(pump);
            else socket.once("drain", pump);
          };
          pump();
        },
      );
      expect(result.status).toBe(413);
      // Refused near the 5 MB avatar limit, long before the 200 MB the client would have sent.
      expect(result.sent).toBeLessThan(40 * 1024 * 1024);
    });
  });

  describe("presigned uploads", () => {
    const presign = (cookie: string, body: Record<string, unknown>) =>
      api(t.app).post("/api/upload/presigned-url", body, { cookie });

    it("reserves a key; the file then comes directly (S3) or through the server (disk) and lands on the promised URL", async () => {
      const data = mp4(512 * 1024);
      const res = await presign(member.cookie, {
        fileName: "lesson.mp4",
        fileType: "video/mp4",
        communityId: community.id,
        uploadType: "posts",
        fileSize: data.length,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ useSupabase: false, isDirectUpload: backend.name === "s3" });
      expect(res.body.key).toMatch(new RegExp(`^community-assets/${community.id}/posts/[0-9a-f-]{36}\\.mp4$`));
      expect(res.body.fileUrl).toBe(`/media/${res.body.key}`);
      // Not served before the file is there and checked.
      expect((await get(res.body.fileUrl)).statusCode).toBe(404);
      let done;
      if (res.body.isDirectUpload) {
        const put = await fetch(res.body.uploadUrl, {
          method: "PUT",
          headers: { "content-type": "video/mp4" },
          body: data,
        });
        expect(put.status).toBe(200);
        expect((await get(res.body.fileUrl)).statusCode).toBe(404);
        done = await api(t.app).post("/api/upload/complete", { key: res.body.key }, { cookie: member.cookie });
      } else {
        expect(res.body.uploadUrl).toBe("/api/upload");
        done = await post(
          member.cookie,
          { name: "lesson.mp4", type: "video/mp4", data },
          { ...forPosts(), key: res.body.key },
        );
      }
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ url: res.body.fileUrl, size: data.length, type: "video/mp4" });
      const file = await fetchMedia(res.body.fileUrl);
      expect(file.body.equals(data)).toBe(true);
      // A key is used once.
      const again =
        backend.name === "s3"
          ? await api(t.app).post("/api/upload/complete", { key: res.body.key }, { cookie: member.cookie })
          : await post(
              member.cookie,
              { name: "lesson.mp4", type: "video/mp4", data },
              { ...forPosts(), key: res.body.key },
            );
      expect(again.status).toBe(400);
      expect(again.body.error.message).toBe(UM.keyExpired);
    });

    it("refuses a file whose bytes are not what was announced, and keeps nothing of it", async () => {
      const fake = Buffer.from("<html><script>alert(1)</script></html>".padEnd(4096, " "));
      const res = await presign(member.cookie, {
        fileName: "fake.mp4",
        fileType: "video/mp4",
        communityId: community.id,
        uploadType: "posts",
        fileSize: fake.length,
      });
      const before = await storedKeys(t, backend.settings);
      let done;
      if (res.body.isDirectUpload) {
        await fetch(res.body.uploadUrl, { method: "PUT", headers: { "content-type": "video/mp4" }, body: fake });
        done = await api(t.app).post("/api/upload/complete", { key: res.body.key }, { cookie: member.cookie });
      } else {
        done = await post(
          member.cookie,
          { name: "fake.mp4", type: "video/mp4", data: fake },
          { ...forPosts(), key: res.body.key },
        );
      }
      expect(done.status).toBe(400);
      expect(done.body.error.message).toContain("Invalid file type");
      await t.app.ctx.worker.runOnce();
      expect((await storedKeys(t, backend.settings)).filter((k) => k === res.body.key)).toEqual([]);
      expect(before.filter((k) => k !== res.body.key)).toEqual(
        (await storedKeys(t, backend.settings)).filter((k) => k !== res.body.key && before.includes(k)),
      );
      expect((await t.database.pool.query("SELECT 1 FROM media_files WHERE key = $1", [res.body.key])).rowCount).toBe(
        0,
      );
    });

    it("refuses bad announcements: type, size, name, someone else's key, outsiders", async () => {
      const base = {
        fileName: "a.mp4",
        fileType: "video/mp4",
        communityId: community.id,
        uploadType: "posts",
        fileSize: 1000,
      };
      const badType = await presign(member.cookie, { ...base, fileType: "text/html" });
      expect(badType.status).toBe(400);
      expect(badType.body.error.message).toMatch(/^Invalid file type\. Accepted types: /);
      const tooBig = await presign(member.cookie, { ...base, fileSize: 501 * 1024 * 1024 });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.error.message).toBe(UM.fileSizeExceeds(500));
      expect((await presign(member.cookie, { ...base, fileName: "../etc/passwd.mp4" })).status).toBe(400);
      expect((await presign(outsider.cookie, base)).status).toBe(403);
      const mine = (await presign(member.cookie, base)).body;
      const theirs = await post(
        owner.cookie,
        { name: "a.mp4", type: "video/mp4", data: mp4(1000) },
        { ...forPosts(), key: mine.key },
      );
      expect(theirs.status).toBe(400);
      expect(theirs.body.error.message).toBe(UM.keyExpired);
    });
  });

  describe("who sees what", () => {
    it("serves a private community's media to members only, and stops when a member leaves", async () => {
      const c = (
        await api(t.app).post("/api/communities", { name: `Closed ${backend.name}` }, { cookie: owner.cookie })
      ).body;
      const reader = await signedInUser(t);
      await api(t.app).post(`/api/communities/${c.id}/join`, {}, { cookie: reader.cookie });
      await api(t.app).patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
      const image = await post(
        owner.cookie,
        { name: "a.jpg", type: "image/jpeg", data: jpeg },
        { communityId: c.id, uploadType: "posts" },
      );
      expect(image.status).toBe(200);
      for (const url of Object.values(image.body.variants) as string[]) {
        expect((await get(url)).statusCode, url).toBe(404);
        expect((await get(url, outsider.cookie)).statusCode).toBe(404);
        const ok = await get(url, reader.cookie);
        expect(ok.statusCode).toBe(200);
        expect(ok.headers["cache-control"]).toBe("private, no-cache");
      }
      await api(t.app).post(`/api/communities/${c.id}/leave`, {}, { cookie: reader.cookie });
      expect((await get(image.body.url, reader.cookie)).statusCode).toBe(404);
    });

    it("hides a community's media from outsiders the moment it turns private", async () => {
      const c = (
        await api(t.app).post("/api/communities", { name: `Turning ${backend.name}` }, { cookie: owner.cookie })
      ).body;
      const image = await post(
        owner.cookie,
        { name: "a.jpg", type: "image/jpeg", data: jpeg },
        { communityId: c.id, uploadType: "posts" },
      );
      expect((await get(image.body.url)).statusCode).toBe(200);
      await api(t.app).patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
      expect((await get(image.body.url)).statusCode).toBe(404);
      expect((await get(image.body.url, owner.cookie)).statusCode).toBe(200);
    });

    it("follows the post: members-only pictures need a member; a deleted post's files are removed", async () => {
      const image = await post(member.cookie, { name: "a.jpg", type: "image/jpeg", data: jpeg }, forPosts());
      const created = await api(t.app).post(
        `/api/communities/${community.id}/posts`,
        {
          type: "image",
          content: "members only",
          visibility: "members",
          images: [
            { url: image.body.url, medium: image.body.variants.medium, thumbnail: image.body.variants.thumbnail },
          ],
        },
        { cookie: member.cookie },
      );
      expect(created.status).toBe(201);
      expect((await get(image.body.variants.medium)).statusCode).toBe(404);
      expect((await get(image.body.variants.medium, outsider.cookie)).statusCode).toBe(404);
      expect((await get(image.body.variants.medium, owner.cookie)).statusCode).toBe(200);

      await api(t.app).delete(`/api/posts/${created.body.id}`, { cookie: member.cookie });
      expect((await get(image.body.variants.medium, owner.cookie)).statusCode).toBe(404);
      await t.app.ctx.worker.runOnce();
      const left = await storedKeys(t, backend.settings);
      for (const url of Object.values(image.body.variants) as string[]) expect(left).not.toContain(url.slice(7));
    });

    it("removes a deleted community's files", async () => {
      const c = (await api(t.app).post("/api/communities", { name: `Gone ${backend.name}` }, { cookie: owner.cookie }))
        .body;
      await post(
        owner.cookie,
        { name: "a.jpg", type: "image/jpeg", data: jpeg },
        { communityId: c.id, uploadType: "posts" },
      );
      await post(
        owner.cookie,
        { name: "v.mp4", type: "video/mp4", data: mp4() },
        { communityId: c.id, uploadType: "posts" },
      );
      expect((await storedKeys(t, backend.settings)).filter((k) => k.includes(c.id)).length).toBe(4);
      const del = await api(t.app).delete(`/api/communities/${c.id}`, { cookie: owner.cookie });
      expect(del.status).toBeLessThan(300);
      await t.app.ctx.worker.runOnce();
      expect((await storedKeys(t, backend.settings)).filter((k) => k.includes(c.id))).toEqual([]);
    });
  });

  it("sweeps unused reservations and post uploads no post took, never a post's files", async () => {
    const taken = await post(member.cookie, { name: "a.jpg", type: "image/jpeg", data: jpeg }, forPosts());
    await api(t.app).post(
      `/api/communities/${community.id}/posts`,
      { type: "image", content: "kept", images: [{ url: taken.body.url }] },
      { cookie: member.cookie },
    );
    const orphan = await post(member.cookie, { name: "b.jpg", type: "image/jpeg", data: jpeg }, forPosts());
    const reserved = await api(t.app).post(
      "/api/upload/presigned-url",
      { fileName: "c.mp4", fileType: "video/mp4", communityId: community.id, uploadType: "posts", fileSize: 100 },
      { cookie: member.cookie },
    );
    // A day and an hour later.
    await t.database.pool.query(`UPDATE media_files SET created_at = now() - interval '25 hours' WHERE key = ANY($1)`, [
      [taken.body.path, orphan.body.path, reserved.body.key],
    ]);
    const swept = await sweepMedia(t.app.ctx, { dataDir: t.config.dataDir });
    expect(swept.rows).toBeGreaterThanOrEqual(2);
    const left = (await t.database.pool.query(`SELECT key FROM media_files`)).rows.map((r) => r.key);
    expect(left).toContain(taken.body.path);
    expect(left).not.toContain(orphan.body.path);
    expect(left).not.toContain(reserved.body.key);
    await t.app.ctx.worker.runOnce();
    const stored = await storedKeys(t, backend.settings);
    expect(stored).toContain(taken.body.path);
    expect(stored).not.toContain(orphan.body.path);
  });

  it("finishes an image whose process died half-way, and serves nothing of it until then", async () => {
    // The state a crash leaves: the raw bytes saved, the row processing, the job queued.
    const base = `community-assets/${community.id}/posts/crashed-${Date.now()}`;
    const incoming = `incoming/crashed-${Date.now()}`;
    await t.app.ctx.storage.put(incoming, jpeg, "application/octet-stream");
    const row = await t.database.pool.query(
      `INSERT INTO media_files (key, owner_id, community_id, purpose, content_type, size, variants, status)
       VALUES ($1, $2, $3, 'post', 'image/webp', $4, $5, 'processing') RETURNING id`,
      [
        `${base}.webp`,
        member.id,
        community.id,
        jpeg.length,
        { medium: `${base}-medium.webp`, thumbnail: `${base}-thumbnail.webp` },
      ],
    );
    await t.database.pool.query(`INSERT INTO jobs (queue, payload) VALUES ('media.variants', $1)`, [
      { mediaId: row.rows[0].id, incoming, base },
    ]);
    expect((await get(`/media/${base}.webp`)).statusCode).toBe(404);
    expect(await t.app.ctx.worker.runOnce()).toBeGreaterThanOrEqual(1);
    const done = await get(`/media/${base}-thumbnail.webp`);
    expect(done.statusCode).toBe(200);
    expect((await sharp(done.rawPayload).metadata()).width).toBe(200);
    expect(await t.app.ctx.storage.head(incoming)).toBeNull();
  });
});

describe("uploads per hour", () => {
  it("stops an account after 300 uploads in an hour when rate limits are on", async () => {
    const t = await createTestApp({ rateLimits: true });
    try {
      const u = await signedInUser(t);
      await t.database.pool.query(
        `INSERT INTO rate_limits (key, window_start, count)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600), 300)`,
        [`upload:${u.id}`],
      );
      const res = await upload(t, "/api/upload", u.cookie, { name: "a.jpg", type: "image/jpeg", data: jpeg });
      expect(res.status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
