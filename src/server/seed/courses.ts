import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import {
  courseLessons,
  courseModules,
  courses,
  lessonCompletions,
  mediaFiles,
  type LessonResource,
} from "#server/db/schema/index";
import type { Storage } from "#server/lib/storage";
import type { DemoAccount, SeededCommunity, Tx } from "./communities";
import { GROWTH_LAB_SLUG, LINKS, VIDEOS } from "./post-content";

/**
 * Demo courses. Creator Growth Lab (owner@hearth.test's) gets a free course that member@hearth.test
 * is part-way through, a paid one ($49) with a free preview lesson, and a draft only its owner and
 * admins see; Watercolor Collective and Python for Data People get a small free course each, so the
 * Courses tab is not empty where the demo accounts are plain members.
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

/** "own": the shipped video, stored for this lesson; otherwise a YouTube or Vimeo link and the talk's length. */
type Video = "own" | { url: string; seconds: number };

type LessonSpec = {
  title: string;
  description: string;
  video: Video;
  preview?: boolean;
  resources?: LessonResource[];
};
type ModuleSpec = { title: string; description: string; lessons: LessonSpec[] };
export type CourseSpec = {
  community: string;
  title: string;
  description: string;
  price: number;
  status: "draft" | "published";
  ageDays: number;
  modules: ModuleSpec[];
  /** member@hearth.test has completed this many lessons from the start, in reading order. */
  memberCompleted?: number;
};

const TALKS = {
  sinek: { url: VIDEOS.sinek, seconds: 1084 },
  urban: { url: VIDEOS.urban, seconds: 843 },
  brown: { url: VIDEOS.brown, seconds: 1219 },
  duckworth: { url: VIDEOS.duckworth, seconds: 372 },
  treasure: { url: VIDEOS.treasure, seconds: 470 },
  vimeoPlayer: { url: VIDEOS.vimeoPlayer, seconds: 62 },
  vimeoMountain: { url: VIDEOS.vimeoMountain, seconds: 191 },
} as const;

const LAB = "https://example.com/growth-lab";

export const DEMO_COURSES: readonly CourseSpec[] = [
  {
    community: GROWTH_LAB_SLUG,
    title: "Creator Growth Foundations",
    description:
      "The free starter course of the Lab: find your angle, build a publishing habit you can keep, listen to the " +
      "people who show up, and plan your next 90 days. About two hours, at your own pace.",
    price: 0,
    status: "published",
    ageDays: 300,
    memberCompleted: 6,
    modules: [
      {
        title: "Start here",
        description: "How the course works and what you will have at the end of it.",
        lessons: [
          {
            title: "Welcome: how this course works",
            description:
              "A short hello, how the modules fit together, and how to mark lessons complete as you go. " +
              "Grab the workbook first: every lesson ends with one exercise in it.",
            video: "own",
            resources: [{ title: "Foundations workbook (template)", url: `${LAB}/foundations-workbook` }],
          },
          {
            title: "Find your why before your niche",
            description:
              "People follow a reason, not a topic. Write one sentence on why you make what you make before " +
              "you decide what to make next.",
            video: TALKS.sinek,
          },
          {
            title: "The math of 1,000 true fans",
            description:
              "How many people you really need for a sustainable creative business, and why depth beats reach " +
              "early on.",
            video: TALKS.vimeoPlayer,
            resources: [{ title: LINKS.trueFans.title, url: LINKS.trueFans.url }],
          },
          {
            title: "Set one growth goal for the next 90 days",
            description: "One number, one deadline, one weekly action. We check in on it in the last module.",
            video: "own",
            resources: [{ title: "90-day goal worksheet", url: `${LAB}/90-day-goal` }],
          },
        ],
      },
      {
        title: "Content that compounds",
        description: "Pick a home, publish on a rhythm, and make every idea work more than once.",
        lessons: [
          {
            title: "Pick a home platform and one helper",
            description:
              "Where your best work lives, and the one channel that sends people there. Everything else can wait.",
            video: TALKS.vimeoMountain,
          },
          {
            title: "A publishing schedule you will actually keep",
            description: "Why we put things off, and how to plan a weekly schedule around the days you really have.",
            video: TALKS.urban,
            resources: [{ title: LINKS.makers.title, url: LINKS.makers.url }],
          },
          {
            title: "Headlines people click, honestly",
            description:
              "Five headline patterns that promise exactly what the post delivers, with examples from the Lab.",
            video: "own",
            resources: [
              { title: "Headline swipe file", url: `${LAB}/headline-swipe-file` },
              { title: LINKS.fPattern.title, url: LINKS.fPattern.url },
            ],
          },
          {
            title: "Repurpose one idea into five posts",
            description:
              "A long post becomes a thread, a short video, a newsletter section and a question for the community.",
            video: TALKS.vimeoPlayer,
            resources: [{ title: "Repurposing checklist", url: `${LAB}/repurposing-checklist` }],
          },
        ],
      },
      {
        title: "Listening to your audience",
        description: "The people who already follow you know what you should make next.",
        lessons: [
          {
            title: "Listen better: comments, replies and DMs",
            description: "Small habits for reading what people write to you, and answering the ones that matter.",
            video: TALKS.treasure,
          },
          {
            title: "Run a two-question reader survey",
            description: "What to ask, when to send it, and how to read the answers without overreacting.",
            video: TALKS.vimeoMountain,
            resources: [{ title: "Survey template", url: `${LAB}/reader-survey` }],
          },
          {
            title: "Turn questions into your next ten posts",
            description: "Sort what people ask into themes, then into a content calendar for the month.",
            video: TALKS.vimeoPlayer,
            resources: [{ title: "Content calendar (template)", url: `${LAB}/content-calendar` }],
          },
        ],
      },
      {
        title: "Keep going",
        description: "Growth is mostly not stopping. This module is about the long middle.",
        lessons: [
          {
            title: "Grit: the 52-week mindset",
            description: "Why consistency beats talent over a year, and how to make it easier on yourself.",
            video: TALKS.duckworth,
            resources: [{ title: LINKS.continuous.title, url: LINKS.continuous.url }],
          },
          {
            title: "Do things that don't scale",
            description: "Reply to everyone, welcome new members by name, send the personal email. Early on, it works.",
            video: TALKS.vimeoMountain,
            resources: [{ title: LINKS.dontScale.title, url: LINKS.dontScale.url }],
          },
          {
            title: "Show up as yourself",
            description: "On camera, in writing, in the community: being a person people can know.",
            video: TALKS.brown,
          },
          {
            title: "Your next 90 days",
            description: "Review your goal from module one, pick the next one, and share it in the Wins category.",
            video: "own",
          },
        ],
      },
    ],
  },
  {
    community: GROWTH_LAB_SLUG,
    title: "The Newsletter Engine",
    description:
      "A complete system for growing a newsletter to 10,000 subscribers: platform, welcome sequence, referral " +
      "loops, sponsorships and paid tiers. The first lesson is free to watch.",
    price: 49,
    status: "published",
    ageDays: 120,
    modules: [
      {
        title: "Foundations",
        description: "Why email, which tools, and the promise your newsletter makes.",
        lessons: [
          {
            title: "Why a newsletter still wins",
            description:
              "Owning the relationship with your readers, in one lesson. Free to watch: see if the course is for you.",
            video: "own",
            preview: true,
            resources: [{ title: LINKS.trueFans.title, url: LINKS.trueFans.url }],
          },
          {
            title: "Choosing a platform without regrets",
            description: "What matters (exports, custom domains, pricing at 10,000 readers) and what does not.",
            video: "own",
            resources: [{ title: "Platform comparison sheet", url: `${LAB}/newsletter-platforms` }],
          },
          {
            title: "Write the promise on your signup page",
            description: "Who it is for, what they get, how often. Three lines that do most of the converting.",
            video: TALKS.sinek,
          },
        ],
      },
      {
        title: "Growth loops",
        description: "Systems that bring readers in while you write.",
        lessons: [
          {
            title: "A welcome sequence that gets replies",
            description: "Three emails, one question, and why replies help you land in the inbox.",
            video: "own",
            resources: [{ title: "Welcome sequence templates", url: `${LAB}/welcome-sequence` }],
          },
          {
            title: "Referral programs that don't feel spammy",
            description: "Rewards people want, milestones that make sense, and how to announce them.",
            video: TALKS.vimeoPlayer,
          },
          {
            title: "Cross-promotions and swaps",
            description: "Finding partners your size, writing the recommendation, and tracking what came of it.",
            video: TALKS.vimeoMountain,
            resources: [{ title: "Swap outreach email", url: `${LAB}/swap-outreach` }],
          },
          {
            title: "Read your numbers weekly",
            description: "Open and click rates, growth sources and unsubscribes: a 15-minute weekly review.",
            video: TALKS.urban,
            resources: [{ title: "Weekly review dashboard", url: `${LAB}/newsletter-dashboard` }],
          },
        ],
      },
      {
        title: "Earning from it",
        description: "Sponsors, paid tiers and products, in the order that works for most.",
        lessons: [
          {
            title: "Your first sponsor",
            description: "A one-page media kit, a fair first price, and the email that gets a yes.",
            video: TALKS.treasure,
            resources: [{ title: "Media kit template", url: `${LAB}/media-kit` }],
          },
          {
            title: "Launching a paid tier",
            description: "What goes behind the paywall, how to price it, and the launch week plan.",
            video: TALKS.brown,
          },
          {
            title: "Keep it going for a year",
            description: "Batching, buffers and breaks, so the newsletter outlasts the enthusiasm.",
            video: TALKS.duckworth,
          },
        ],
      },
    ],
  },
  {
    community: GROWTH_LAB_SLUG,
    title: "Short-Form Video Sprint",
    description:
      "Thirty days, thirty short videos: hooks, filming on a phone, editing fast and reading the numbers. " +
      "Still being recorded: published when every module is done.",
    price: 29,
    status: "draft",
    ageDays: 6,
    modules: [
      {
        title: "Module 1: Introduction",
        description: "The sprint, the rules, and your setup.",
        lessons: [
          {
            title: "How the sprint works",
            description: "One video a day for thirty days, and the check-in thread that keeps you honest.",
            video: "own",
          },
          {
            title: "A phone, a window and a cheap microphone",
            description: "The only setup you need, and where to put it.",
            video: TALKS.vimeoPlayer,
          },
        ],
      },
      {
        title: "Hooks",
        description: "The first two seconds.",
        lessons: [
          {
            title: "Five hooks that work in any niche",
            description: "With examples, and what to avoid.",
            video: TALKS.vimeoMountain,
            resources: [{ title: "Hook bank", url: `${LAB}/hook-bank` }],
          },
        ],
      },
    ],
  },
  {
    community: "watercolor-collective",
    title: "Loose Florals: A Starter Course",
    description:
      "Five short lessons on painting loose, bright flowers: water control, three brushes, and letting the " +
      "paint do the work. All you need is a small palette and a pad of cotton paper.",
    price: 0,
    status: "published",
    ageDays: 200,
    modules: [
      {
        title: "Materials and water",
        description: "Everything before the first petal.",
        lessons: [
          {
            title: "Welcome and materials",
            description: "What is on my table, what to buy first, and what can wait.",
            video: "own",
            resources: [{ title: "Supply list", url: "https://example.com/watercolor/supply-list" }],
          },
          {
            title: "Water control in ten minutes",
            description: "Wet-on-wet, wet-on-dry, and the shine that tells you when to stop.",
            video: TALKS.vimeoMountain,
          },
        ],
      },
      {
        title: "Painting flowers",
        description: "Petals, leaves and a small bouquet.",
        lessons: [
          {
            title: "One-stroke petals",
            description: "Pressure and release with a round brush; fill a page of them.",
            video: TALKS.vimeoPlayer,
          },
          {
            title: "Leaves and stems",
            description: "Mixing greens that stay fresh, and lines that look alive.",
            video: TALKS.vimeoMountain,
          },
          {
            title: "A loose bouquet, start to finish",
            description: "Putting it together in one sitting, mistakes included.",
            video: TALKS.vimeoPlayer,
            resources: [{ title: "Reference photo", url: "https://example.com/watercolor/bouquet-reference" }],
          },
        ],
      },
    ],
  },
  {
    community: "python-for-data-people",
    title: "Pandas in a Weekend",
    description:
      "From a spreadsheet to a clean, grouped and plotted data set in pandas. Bring a CSV you care about; " +
      "every lesson ends with a notebook exercise.",
    price: 0,
    status: "published",
    ageDays: 400,
    modules: [
      {
        title: "Saturday: loading and cleaning",
        description: "Notebooks, DataFrames and the mess in real files.",
        lessons: [
          {
            title: "Set up a notebook",
            description: "Install, start a notebook, and load your first CSV.",
            video: "own",
            resources: [{ title: LINKS.pandas.title, url: LINKS.pandas.url }],
          },
          {
            title: "Selecting rows and columns",
            description: "loc, iloc and boolean masks, with the mistakes everyone makes once.",
            video: TALKS.vimeoPlayer,
          },
          {
            title: "Cleaning messy data",
            description: "Missing values, wrong types and duplicate rows.",
            video: TALKS.vimeoMountain,
          },
        ],
      },
      {
        title: "Sunday: grouping and plotting",
        description: "Answering questions with groupby, then showing the answer.",
        lessons: [
          {
            title: "groupby, step by step",
            description: "Split, apply, combine, and reading the result.",
            video: TALKS.vimeoPlayer,
            resources: [
              { title: "Group by: split-apply-combine", url: "https://pandas.pydata.org/docs/user_guide/groupby.html" },
            ],
          },
          {
            title: "Your first chart",
            description: "A line and a bar chart straight from a DataFrame, labelled properly.",
            video: TALKS.vimeoMountain,
          },
        ],
      },
    ],
  },
];

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
      if (spec.price > 0 || spec.status !== "published") throw new Error(`${spec.title}: completions need access`);
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
