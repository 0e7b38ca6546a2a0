import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { UPLOAD_MESSAGES as UM } from "#shared/uploads";
import { api } from "#server/test/harness";
import { startS3Server } from "#server/test/s3-server";
import {
  community,
  evilSvg,
  fetchMedia,
  forPosts,
  get,
  jpeg,
  manyFrames,
  member,
  mp4,
  noise,
  outsider,
  owner,
  pdf,
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
});
