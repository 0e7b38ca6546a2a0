import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { COURSE_MESSAGES, lessonVideo, progressLabel } from "#shared/courses";
import { api, sessionCookie } from "#server/test/harness";
import { DEMO_VIDEO_FILE, DEMO_VIDEO_SECONDS } from "./courses";
import { DEMO_COURSES } from "./content/courses.data";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { query, t, userId, useSeededApp } from "./seed.test-helpers";

useSeededApp();

type CourseCard = {
  id: string;
  title: string;
  price: number;
  status: string;
  has_access: boolean;
  lessons_count: number;
  completed_count: number;
  progress: number;
};
type CourseLesson = {
  id: string;
  title: string;
  order_index: number;
  video_url: string | null;
  video_duration: number | null;
  is_preview: boolean;
  resources: { title: string; url: string }[];
  completed: boolean;
  locked: boolean;
  lock_reason: string | null;
};
type CourseDetail = {
  course: CourseCard;
  modules: { id: string; title: string; order_index: number; lessons: CourseLesson[] }[];
};

describe("demo courses", () => {
  const cookies: Record<string, string> = {};
  const as = (who: "owner" | "member") => ({ cookie: cookies[who] });
  const lessonsOf = (d: CourseDetail) => d.modules.flatMap((m) => m.lessons);
  const spec = (title: string) => DEMO_COURSES.find((c) => c.title === title)!;
  const detail = async (id: string, who?: "owner" | "member") => {
    const res = await api(t.app).get(`/api/courses/${id}`, who ? as(who) : undefined);
    expect(res.status, id).toBe(200);
    return res.body as CourseDetail;
  };
  let labAsOwner: CourseCard[];
  let labAsMember: CourseCard[];
  let free: CourseCard;
  let paid: CourseCard;
  let draft: CourseCard;

  beforeAll(async () => {
    for (const who of ["owner", "member"] as const) {
      const res = await api(t.app).post("/api/auth/sign-in/email", {
        email: `${who}@hearth.test`,
        password: DEMO_PASSWORD,
      });
      cookies[who] = sessionCookie(res.headers);
    }
    const tab = async (who: "owner" | "member") => {
      const res = await api(t.app).get("/api/communities/creator-growth-lab/courses", as(who));
      expect(res.status).toBe(200);
      return res.body.items as CourseCard[];
    };
    labAsOwner = await tab("owner");
    labAsMember = await tab("member");
    free = labAsOwner.find((c) => c.status === "published" && c.price === 0)!;
    paid = labAsOwner.find((c) => c.status === "published" && c.price > 0)!;
    draft = labAsOwner.find((c) => c.status === "draft")!;
  });

  it("gives Creator Growth Lab a free course, a paid one and a draft only its owner sees", () => {
    expect(free).toBeDefined();
    expect(paid).toBeDefined();
    expect(draft).toBeDefined();
    expect(paid.price).toBe(49);
    expect(labAsMember.map((c) => c.id)).toEqual(labAsOwner.filter((c) => c.status === "published").map((c) => c.id));
    expect(labAsOwner.every((c) => c.has_access)).toBe(true);
  });

  it("builds every course as written: modules and lessons in order, with videos, lengths and https resources", async () => {
    const all = await query<{ id: string; title: string }>(sql`select id, title from courses`);
    expect(all.length).toBe(DEMO_COURSES.length);
    for (const c of all) {
      const s = spec(c.title);
      const d = await detail(c.id, "owner");
      expect(d.modules.map((m) => m.title)).toEqual(s.modules.map((m) => m.title));
      expect(d.modules.map((m) => m.order_index)).toEqual(s.modules.map((_, i) => i));
      d.modules.forEach((m, i) => {
        expect(m.lessons.map((l) => l.title)).toEqual(s.modules[i].lessons.map((l) => l.title));
        expect(m.lessons.map((l) => l.order_index)).toEqual(m.lessons.map((_, j) => j));
      });
      // From the rows: outside its own communities owner@hearth.test sees lessons locked (no video, no resources).
      const rows = await query<CourseLesson>(sql`
        select l.title, l.video_url, l.video_duration, l.resources from course_lessons l
        join course_modules m on m.id = l.module_id where m.course_id = ${c.id}`);
      expect(rows.length).toBe(lessonsOf(d).length);
      for (const l of rows) {
        expect(lessonVideo(l.video_url!), l.title).not.toBeNull();
        expect(l.video_duration, l.title).toBeGreaterThan(0);
        for (const r of l.resources) expect(r.url, l.title).toMatch(/^https:\/\//);
      }
    }
    // The free course: 3-4 modules of 3-5 lessons each.
    const d = await detail(free.id, "owner");
    expect(d.modules.length).toBeGreaterThanOrEqual(3);
    expect(d.modules.length).toBeLessThanOrEqual(4);
    for (const m of d.modules) {
      expect(m.lessons.length, m.title).toBeGreaterThanOrEqual(3);
      expect(m.lessons.length, m.title).toBeLessThanOrEqual(5);
    }
    const kinds = new Set(lessonsOf(d).map((l) => lessonVideo(l.video_url!)!.kind));
    expect(kinds).toEqual(new Set(["file", "youtube", "vimeo"]));
  });

  it("puts a free published course in other communities too", async () => {
    const elsewhere = await query<{ slug: string }>(sql`
      select distinct c.slug from courses co join communities c on c.id = co.community_id
      where co.status = 'published' and co.price = 0 and c.slug <> 'creator-growth-lab'`);
    expect(elsewhere.length).toBeGreaterThanOrEqual(1);
    // One where member@hearth.test is a plain member, with no progress yet.
    const res = await api(t.app).get("/api/communities/python-for-data-people/courses", as("member"));
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items[0]).toMatchObject({ has_access: true, progress: 0 });
  });

  it("has member@hearth.test part-way through the free course and without the paid one", async () => {
    const mine = labAsMember.find((c) => c.id === free.id)!;
    const done = spec(free.title).memberCompleted!;
    expect(mine).toMatchObject({ has_access: true, completed_count: done });
    expect(mine.progress).toBeGreaterThan(0);
    expect(mine.progress).toBeLessThan(100);
    expect(progressLabel(mine.progress)).toBe(COURSE_MESSAGES.continueCourse);
    // The first lessons in reading order are the completed ones.
    const lessons = lessonsOf(await detail(free.id, "member"));
    expect(lessons.map((l) => l.completed)).toEqual(lessons.map((_, i) => i < done));
    const other = labAsMember.find((c) => c.id === paid.id)!;
    expect(other).toMatchObject({ has_access: false, completed_count: 0, progress: 0 });
    const max = await userId("member@hearth.test");
    const [rows] = await query<{ purchases: number; paid_completions: number }>(sql`
      select (select count(*)::int from entitlements where kind = 'course' and user_id = ${max}) as purchases,
             (select count(*)::int from lesson_completions where user_id = ${max} and course_id = ${paid.id}) as paid_completions`);
    expect(rows).toEqual({ purchases: 0, paid_completions: 0 });
  });

  it("locks the paid course's lessons for member@hearth.test except the free preview", async () => {
    const lessons = lessonsOf(await detail(paid.id, "member"));
    const previews = lessons.filter((l) => l.is_preview);
    expect(previews.length).toBe(1);
    expect(previews[0]).toMatchObject({ locked: false, lock_reason: null });
    expect(previews[0].video_url).toMatch(/^\/media\/community-assets\/.+\.webm$/);
    const locked = lessons.filter((l) => !l.is_preview);
    expect(locked.length).toBeGreaterThan(0);
    for (const l of locked)
      expect(l, l.title).toMatchObject({ locked: true, lock_reason: "purchase", video_url: null, resources: [] });
    // The owner sees every lesson's video.
    expect(lessonsOf(await detail(paid.id, "owner")).every((l) => l.video_url)).toBe(true);
    // The draft is not there for a member at all.
    expect((await api(t.app).get(`/api/courses/${draft.id}`, as("member"))).status).toBe(404);
  });

  it("stores the shipped video once per lesson that plays it and serves it to those who may watch", async () => {
    const shipped = readFileSync(DEMO_VIDEO_FILE);
    const files = await query<{
      key: string;
      lesson_id: string;
      video_url: string;
      size: number;
      course_id: string;
    }>(sql`
      select f.key, f.lesson_id, l.video_url, f.size::int as size, m.course_id from media_files f
      join course_lessons l on l.id = f.lesson_id join course_modules m on m.id = l.module_id
      where f.purpose = 'lesson'`);
    const own = await query<{ n: number }>(sql`
      select count(*)::int as n from course_lessons where video_url like '/media/%'`);
    expect(files.length).toBe(own[0].n);
    expect(new Set(files.map((f) => f.key)).size).toBe(files.length);
    for (const f of files) {
      expect(f.video_url).toBe(`/media/${f.key}`);
      expect(f.key).toMatch(/^community-assets\/[0-9a-f-]{36}\/courses\/[0-9a-f-]{36}\.webm$/);
      expect(f.size).toBe(shipped.length);
    }
    const http = api(t.app);
    // A member of the free course watches its videos.
    const freeLessons = lessonsOf(await detail(free.id, "member")).filter((l) => l.video_url?.startsWith("/media/"));
    expect(freeLessons.length).toBeGreaterThan(0);
    for (const l of freeLessons) {
      const res = await http.get(l.video_url!, as("member"));
      expect(res.status, l.title).toBe(200);
      expect(res.headers["content-type"]).toBe("video/webm");
      expect(Buffer.compare(res.raw.rawPayload, shipped)).toBe(0);
    }
    // Players ask for ranges.
    const ranged = await http.get(freeLessons[0].video_url!, { ...as("member"), headers: { range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect(ranged.raw.rawPayload.length).toBe(100);
    // Signed out: nothing.
    expect((await http.get(freeLessons[0].video_url!)).status).toBe(404);
    // The paid course: the preview plays for member@hearth.test, the other lessons' videos do not.
    const paidFiles = files.filter((f) => f.course_id === paid.id);
    const previewIds = new Set(
      lessonsOf(await detail(paid.id, "owner"))
        .filter((l) => l.is_preview)
        .map((l) => l.id),
    );
    expect(paidFiles.some((f) => previewIds.has(f.lesson_id))).toBe(true);
    expect(paidFiles.some((f) => !previewIds.has(f.lesson_id))).toBe(true);
    for (const f of paidFiles) {
      const res = await http.get(`/media/${f.key}`, as("member"));
      expect(res.status, f.key).toBe(previewIds.has(f.lesson_id) ? 200 : 404);
      expect((await http.get(`/media/${f.key}`, as("owner"))).status, f.key).toBe(200);
    }
    // The lesson length is the file's.
    expect(freeLessons.every((l) => l.video_duration === DEMO_VIDEO_SECONDS)).toBe(true);
  });
});
