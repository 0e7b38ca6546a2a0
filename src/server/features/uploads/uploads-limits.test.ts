import { randomBytes } from "node:crypto";
import net, { type AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { DAILY_UPLOAD_BYTES, UPLOAD_MESSAGES as UM } from "#shared/uploads";
import { sweepMedia } from "#server/lib/uploads";
import { api, createTestApp, multipart, ORIGIN, signedInUser, upload } from "#server/test/harness";
import { startS3Server } from "#server/test/s3-server";
import {
  community,
  fetchMedia,
  forPosts,
  get,
  jpeg,
  member,
  mp4,
  outsider,
  owner,
  pixelFlood,
  post,
  storedKeys,
  t,
  useBackend,
  useJpeg,
  type Backend,
} from "./uploads.test-helpers";

useJpeg();

const s3 = await startS3Server();
afterAll(() => s3.close());

describe.each<Backend>([{ name: "disk" }, { name: "s3", settings: s3.settings }])("uploads on $name", (backend) => {
  useBackend(backend);

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
