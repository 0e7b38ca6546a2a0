import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { toMinor } from "#shared/payments";
import { courseLessons, courseModules, courses, lessonCompletions, mediaFiles, prices } from "#server/db/schema/index";
import type { Storage } from "#server/lib/storage";
import type { DemoAccount, SeededCommunity, Tx } from "./communities";
import { DEMO_COURSES, type CourseSpec } from "./content/courses.data";

/**
 * Demo courses. Creator Growth Lab (owner@hearth.test's) gets a free course that member@hearth.test
 * is part-way through, a paid one ($49) with a free preview lesson, and a draft only its owner and
 * admins see; Watercolor Collective and Python for Data People get a small free course each, so the
 * Courses tab is not empty where the demo accounts are plain members, and Python for Data People a
 * second one unlocked at level 3 (member@hearth.test is below it there: the lock shows).
 *
 * Lessons play YouTube or Vimeo talks, or the video the project ships (assets/lesson-demo.webm, made
 * by scripts/make-demo-video.mjs), which plays with no internet. That file is stored once per
 * lesson that plays it, like an upload of that lesson: /media decides who may watch from the
 * media_files row's lesson (the course's price and the lesson's free preview), and editing or
 * deleting one lesson removes only its own copy, never another lesson's video.
 */

/** The shipped lesson video: 640×360 VP8 WebM. */
export const DEMO_VIDEO_FILE = new URL("./assets/lesson-demo.webm", import.meta.url);
/** Its length in seconds (written into the file's header by the script that made it). */
export const DEMO_VIDEO_SECONDS = 9;

export type CourseSeedResult = { courses: number; lessons: number; videos: number; completions: number };

const DAY = 24 * 60 * 60 * 1000;

/**
 * Inserts the demo courses inside the seed's transaction: four statements for the rows (courses,
 * modules, lessons, completions), the lesson videos written to storage, and one statement recording
 * them in media_files.
 */
export async function seedCourses(input: {
  tx: Tx;
  storage: Storage;
  seeded: SeededCommunity[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
  specs?: readonly CourseSpec[];
}): Promise<CourseSeedResult> {
  const { tx, storage, seeded, accounts, now } = input;
  const specs = input.specs ?? DEMO_COURSES;
  const video = readFile(DEMO_VIDEO_FILE);
  video.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const bySlug = new Map(seeded.map((c) => [c.slug, c]));

  const courseRows: (typeof courses.$inferInsert)[] = [];
  const moduleRows: (typeof courseModules.$inferInsert)[] = [];
  const lessonRows: (typeof courseLessons.$inferInsert)[] = [];
  const completionRows: (typeof lessonCompletions.$inferInsert)[] = [];
  const files: { key: string; communityId: string; ownerId: string; lessonId: string }[] = [];
  const orderIn = new Map<string, number>();

  for (const spec of specs) {
    const community = bySlug.get(spec.community);
    if (!community) throw new Error(`No demo community ${spec.community} for the course ${spec.title}`);
    const courseId = randomUUID();
    const createdAt = new Date(now - spec.ageDays * DAY);
    const orderIndex = orderIn.get(community.id) ?? 0;
    orderIn.set(community.id, orderIndex + 1);
    courseRows.push({
      id: courseId,
      communityId: community.id,
      title: spec.title,
      description: spec.description,
      price: spec.price,
      access: spec.unlockLevel ? "level" : spec.price > 0 ? "sold" : "members",
      unlockLevel: spec.unlockLevel ?? null,
      status: spec.status,
      orderIndex,
      createdBy: community.ownerId,
      createdAt,
      updatedAt: new Date(Math.min(createdAt.getTime() + 3 * DAY, now)),
    });
    const inOrder: { lessonId: string; moduleId: string }[] = [];
    spec.modules.forEach((m, mi) => {
      const moduleId = randomUUID();
      moduleRows.push({ id: moduleId, courseId, title: m.title, description: m.description, orderIndex: mi });
      m.lessons.forEach((l, li) => {
        const lessonId = randomUUID();
        let videoUrl: string;
        let seconds: number;
        if (l.video === "own") {
          const key = `community-assets/${community.id}/courses/${randomUUID()}.webm`;
          files.push({ key, communityId: community.id, ownerId: community.ownerId, lessonId });
          videoUrl = storage.publicUrl(key);
          seconds = DEMO_VIDEO_SECONDS;
        } else {
          videoUrl = l.video.url;
          seconds = l.video.seconds;
        }
        lessonRows.push({
          id: lessonId,
          moduleId,
          title: l.title,
          description: l.description,
          videoUrl,
          videoDuration: seconds,
          isPreview: l.preview ?? false,
          orderIndex: li,
          resources: l.resources ?? [],
          // Written in reading order while the course was built.
          createdAt: new Date(createdAt.getTime() + (mi * 10 + li) * 60_000),
        });
        inOrder.push({ lessonId, moduleId });
      });
    });
    const done = spec.memberCompleted ?? 0;
    if (done > 0) {
      const member = community.members.find((m) => m.userId === accounts.member.id);
      if (!member) throw new Error(`member@hearth.test is not in ${spec.community} to take ${spec.title}`);
      if (spec.price > 0 || spec.unlockLevel || spec.status !== "published")
        throw new Error(`${spec.title}: completions need access`);
      // A lesson every day or two, the last one yesterday.
      inOrder.slice(0, done).forEach(({ lessonId, moduleId }, i) => {
        const at = now - (done - i) * 1.5 * DAY + 3 * 60 * 60 * 1000;
        completionRows.push({
          userId: accounts.member.id,
          lessonId,
          moduleId,
          courseId,
          completedAt: new Date(Math.max(at, member.joinedAt.getTime() + 60_000, createdAt.getTime() + DAY)),
        });
      });
    }
  }

  await tx.insert(courses).values(courseRows);
  // A sold course's one-time price (demo communities charge in US dollars).
  const sold = courseRows.filter((c) => c.access === "sold");
  if (sold.length) {
    await tx.insert(prices).values(
      sold.map((c) => ({
        product: "course" as const,
        communityId: c.communityId,
        courseId: c.id,
        interval: "once" as const,
        currency: "usd",
        amount: toMinor(Number(c.price), "usd"),
      })),
    );
  }
  await tx.insert(courseModules).values(moduleRows);
  await tx.insert(courseLessons).values(lessonRows);
  if (completionRows.length) await tx.insert(lessonCompletions).values(completionRows);

  // Stored like a lesson's upload: one copy per lesson, recorded with the lesson it belongs to.
  const bytes = await video;
  await Promise.all(files.map((f) => storage.put(f.key, bytes, "video/webm")));
  if (files.length) {
    await tx.insert(mediaFiles).values(
      files.map((f) => ({
        key: f.key,
        ownerId: f.ownerId,
        communityId: f.communityId,
        lessonId: f.lessonId,
        purpose: "lesson" as const,
        contentType: "video/webm",
        size: bytes.length,
        originalName: "lesson-demo.webm",
      })),
    );
  }
  return {
    courses: courseRows.length,
    lessons: lessonRows.length,
    videos: files.length,
    completions: completionRows.length,
  };
}
