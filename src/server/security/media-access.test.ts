/**
 * Stored files are served to exactly those who may see what names them.
 *
 * Course files: a lesson's resources (documents, pictures) follow the lesson's access like its
 * video, on every request, and are never cacheable by a shared cache when access is restricted;
 * this holds for files stored before resources were linked to their lesson too.
 *
 * Replaced pictures: overlapping avatar, icon and cover replacements leave exactly one current
 * picture, served, and no file of that purpose that nothing shows; none of them fails.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepMedia } from "#server/lib/uploads";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";
import { ok, makeWorld, type User, type World } from "./world";

let t: TestApp;
let h: ReturnType<typeof api>;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  h = api(t.app);
  w = await makeWorld(t);
});
afterAll(() => t.close());

const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const png = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .png()
    .toBuffer();

const fetchMedia = (url: string, who?: User) =>
  t.app.inject({ method: "GET", url, headers: who ? { cookie: who.cookie } : {} });

/** Drains the job queue (the files of deleted rows leave storage through it). */
async function drainJobs() {
  while ((await t.app.ctx.worker.runOnce()) > 0);
}

async function courseUpload(file: { name: string; type: string; data: Buffer }) {
  const res = ok(await upload(t, "/api/upload", w.owner.cookie, file, { communityId: w.a.id, uploadType: "courses" }));
  return res.body as { url: string; path: string; variants?: { original: string; medium: string; thumbnail: string } };
}

/** A published course of community A at `price`, with one lesson carrying `resources`. */
async function courseWithResources(price: number, resources: { title: string; url: string }[], isPreview = false) {
  const course = ok(
    await h.post(
      `/api/communities/${w.a.id}/courses`,
      { title: `Course ${price} ${Math.random().toString(36).slice(2, 8)}`, description: "Files", price },
      { cookie: w.owner.cookie },
    ),
    201,
  ).body;
  const withLesson = ok(
    await h.post(
      `/api/modules/${course.modules[0].id}/lessons`,
      {
        title: "With files",
        video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        is_preview: isPreview,
        resources,
      },
      { cookie: w.owner.cookie },
    ),
    201,
  ).body;
  ok(await h.patch(`/api/courses/${course.course.id}`, { status: "published" }, { cookie: w.owner.cookie }));
  return { courseId: course.course.id as string, lessonId: withLesson.modules[0].lessons[0].id as string };
}

describe("item 5: a lesson's resources follow the lesson's access", () => {
  it("serves a paid lesson's resources only to staff and buyers, privately, and never anonymously", async () => {
    const doc = await courseUpload({ name: "workbook.pdf", type: "application/pdf", data: pdf("workbook") });
    const pic = await courseUpload({ name: "diagram.png", type: "image/png", data: await png("#0f766e") });
    const { courseId } = await courseWithResources(25, [
      { title: "Workbook", url: doc.url },
      { title: "Diagram", url: pic.variants!.medium },
    ]);
    const urls = [doc.url, ...Object.values(pic.variants!)];
    for (const url of urls) {
      for (const who of [undefined, w.outsider, w.member, w.moderator]) {
        const res = await fetchMedia(url, who);
        expect(res.statusCode, `${url} for ${who?.email ?? "anonymous"}`).toBe(404);
        expect(String(res.headers["cache-control"] ?? "")).not.toContain("public");
      }
      for (const who of [w.owner, w.admin]) {
        const res = await fetchMedia(url, who);
        expect(res.statusCode, `${url} for ${who.email}`).toBe(200);
        expect(res.headers["cache-control"]).toBe("private, no-cache");
      }
    }
    ok(await h.post(`/api/courses/${courseId}/purchase`, {}, { cookie: w.member.cookie }));
    for (const url of urls) {
      const res = await fetchMedia(url, w.member);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
      expect((await fetchMedia(url)).statusCode, url).toBe(404);
    }
  });

  it("opens a free preview's and a free course's resources to members only, never cacheable publicly", async () => {
    const preview = await courseUpload({ name: "preview.pdf", type: "application/pdf", data: pdf("preview") });
    const free = await courseUpload({ name: "free.pdf", type: "application/pdf", data: pdf("free") });
    await courseWithResources(40, [{ title: "Preview notes", url: preview.url }], true);
    await courseWithResources(0, [{ title: "Free notes", url: free.url }]);
    for (const url of [preview.url, free.url]) {
      expect((await fetchMedia(url)).statusCode, url).toBe(404);
      expect((await fetchMedia(url, w.outsider)).statusCode, url).toBe(404);
      const res = await fetchMedia(url, w.member);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
    }
  });

  it("protects resources stored before they were linked to their lesson, and files no lesson names yet", async () => {
    const old = await courseUpload({ name: "old.pdf", type: "application/pdf", data: pdf("old") });
    const loose = await courseUpload({ name: "loose.pdf", type: "application/pdf", data: pdf("loose") });
    await courseWithResources(30, [{ title: "Old workbook", url: old.url }]);
    // The row as an earlier version left it: no link from the file to the lesson.
    await t.database.pool.query(`UPDATE media_files SET lesson_id = NULL WHERE key = $1`, [old.path]);
    for (const url of [old.url, loose.url]) {
      for (const who of [undefined, w.outsider, w.member]) {
        expect((await fetchMedia(url, who)).statusCode, `${url} for ${who?.email ?? "anonymous"}`).toBe(404);
      }
      const staff = await fetchMedia(url, w.admin);
      expect(staff.statusCode, url).toBe(200);
      expect(staff.headers["cache-control"]).toBe("private, no-cache");
    }
  });

  it("deletes a lesson's resources with the lesson, and a removed resource at once", async () => {
    const kept = await courseUpload({ name: "kept.pdf", type: "application/pdf", data: pdf("kept") });
    const dropped = await courseUpload({ name: "dropped.pdf", type: "application/pdf", data: pdf("dropped") });
    const { lessonId } = await courseWithResources(0, [
      { title: "Kept", url: kept.url },
      { title: "Dropped", url: dropped.url },
    ]);
    ok(
      await h.patch(
        `/api/lessons/${lessonId}`,
        { resources: [{ title: "Kept", url: kept.url }] },
        { cookie: w.owner.cookie },
      ),
    );
    expect((await fetchMedia(dropped.url, w.owner)).statusCode).toBe(404);
    expect((await fetchMedia(kept.url, w.member)).statusCode).toBe(200);
    ok(await h.delete(`/api/lessons/${lessonId}`, { cookie: w.owner.cookie }));
    expect((await fetchMedia(kept.url, w.owner)).statusCode).toBe(404);
    await drainJobs();
    expect(await t.app.ctx.storage.head(kept.path)).toBeNull();
    expect(await t.app.ctx.storage.head(dropped.path)).toBeNull();
  });
});

describe("item 7: overlapping picture replacements leave one current picture and nothing else", () => {
  const N = 6;

  /** Sends `N` uploads at once (multipart, as the browser does) and answers their statuses and bodies. */
  async function inParallel(
    url: string,
    cookie: string,
    file: () => Promise<{ name: string; type: string; data: Buffer }>,
  ) {
    const files = await Promise.all(Array.from({ length: N }, file));
    return Promise.all(files.map((f) => upload(t, url, cookie, f)));
  }

  async function rowsOf(where: string, params: unknown[]) {
    return (
      await t.database.pool.query<{ key: string }>(`SELECT key FROM media_files WHERE ${where}`, params)
    ).rows.map((r) => r.key);
  }

  /** The keys every answer named, once stored files of the others are gone, are all absent but `current`'s. */
  async function onlyCurrentStored(paths: string[], current: string) {
    await drainJobs();
    for (const p of paths) {
      const stored = await t.app.ctx.storage.head(p);
      if (p === current) expect(stored, p).not.toBeNull();
      else expect(stored, p).toBeNull();
    }
  }

  it("avatar: N at once all succeed, exactly one is current and served, no other avatar is left", async () => {
    const u = await signedInUser(t, { name: "Racing avatar" });
    let i = 0;
    const answers = await inParallel("/api/me/avatar", u.cookie, async () => ({
      name: `a${i}.png`,
      type: "image/png",
      data: await png(`#${(0x102030 + 0x0f0f0f * i++).toString(16).slice(-6)}`),
    }));
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    const paths = answers.map((a) => a.body.path as string);
    expect(new Set(paths).size).toBe(N);
    const current = ok(await h.get("/api/me", { cookie: u.cookie })).body.profile.avatar_url as string;
    expect(answers.map((a) => a.body.url)).toContain(current);
    const served = await fetchMedia(current);
    expect(served.statusCode).toBe(200);
    const currentKey = answers.find((a) => a.body.url === current)!.body.path as string;
    expect(await rowsOf(`owner_id = $1 AND purpose = 'avatar'`, [u.id])).toEqual([currentKey]);
    await onlyCurrentStored(paths, currentKey);
    expect((await fetchMedia(current)).statusCode).toBe(200);
  });

  it("cover and icon: N at once all succeed, exactly one of each is current and served, nothing else is left", async () => {
    let i = 0;
    const covers = await inParallel(`/api/communities/${w.b.id}/cover`, w.ownerB.cookie, async () => ({
      name: `c${i}.png`,
      type: "image/png",
      data: await png(`#${(0x203040 + 0x0e0e0e * i++).toString(16).slice(-6)}`),
    }));
    const icons = await inParallel(`/api/communities/${w.b.id}/icon`, w.ownerB.cookie, async () => ({
      name: "icon.svg",
      type: "image/svg+xml",
      data: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0f766e"/></svg>`,
      ),
    }));
    expect(covers.map((a) => a.status)).toEqual(Array(N).fill(200));
    expect(icons.map((a) => a.status)).toEqual(Array(N).fill(200));
    const view = ok(await h.get(`/api/communities/${w.b.id}`, { cookie: w.ownerB.cookie })).body;
    const community = view.community ?? view;
    const coverKey = covers.find((a) => a.body.variants.original === community.cover_url)?.body.path as string;
    const iconKey = icons.find((a) => a.body.url === community.icon_url)?.body.path as string;
    expect(coverKey).toBeTruthy();
    expect(iconKey).toBeTruthy();
    expect((await fetchMedia(community.cover_url)).statusCode).toBe(200);
    expect((await fetchMedia(community.icon_url)).statusCode).toBe(200);
    expect(await rowsOf(`community_id = $1 AND purpose = 'cover'`, [w.b.id])).toEqual([coverKey]);
    expect(await rowsOf(`community_id = $1 AND purpose = 'icon'`, [w.b.id])).toEqual([iconKey]);
    await onlyCurrentStored(
      covers.map((a) => a.body.path),
      coverKey,
    );
    await onlyCurrentStored(
      icons.map((a) => a.body.path),
      iconKey,
    );
  });

  it("the hourly sweep removes an avatar, icon or cover older than an hour that nothing shows, never a current one", async () => {
    const u = await signedInUser(t, { name: "Left behind" });
    const avatar = async () =>
      ok(await upload(t, "/api/me/avatar", u.cookie, { name: "a.png", type: "image/png", data: await png("#334155") }))
        .body;
    const stray = await avatar();
    const current = await avatar();
    const cover = ok(
      await upload(t, `/api/communities/${w.b.id}/cover`, w.ownerB.cookie, {
        name: "c.png",
        type: "image/png",
        data: await png("#1e293b"),
      }),
    ).body;
    // What an interrupted replacement (or an older version) leaves: rows nothing points at.
    const orphan = {
      avatar: `user-avatars/${u.id}/avatar-left.webp`,
      cover: `community-assets/${w.b.id}/cover-left.webp`,
    };
    await t.database.pool.query(
      `INSERT INTO media_files (key, owner_id, community_id, purpose, content_type, size)
       VALUES ($1, $3, NULL, 'avatar', 'image/webp', 1), ($2, $3, $4, 'cover', 'image/webp', 1)`,
      [orphan.avatar, orphan.cover, u.id, w.b.id],
    );
    await t.database.pool.query(`UPDATE media_files SET created_at = now() - interval '2 hours' WHERE key = ANY($1)`, [
      [orphan.avatar, orphan.cover, current.path, cover.path, stray.path],
    ]);
    await sweepMedia(t.app.ctx);
    const left = (await t.database.pool.query<{ key: string }>(`SELECT key FROM media_files`)).rows.map((r) => r.key);
    expect(left).toContain(current.path);
    expect(left).toContain(cover.path);
    expect(left).not.toContain(orphan.avatar);
    expect(left).not.toContain(orphan.cover);
    expect(left).not.toContain(stray.path);
    expect((await fetchMedia(current.url)).statusCode).toBe(200);
    expect((await fetchMedia(cover.url)).statusCode).toBe(200);
  });
});
