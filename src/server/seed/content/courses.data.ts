import type { LessonResource } from "#server/db/schema/index";
import { GROWTH_LAB_SLUG, LINKS, VIDEOS } from "./post-content.data";

// The demo courses' content, inserted by ../courses.ts.

/** "own": the shipped video, stored for this lesson; otherwise a YouTube or Vimeo link and the talk's length. */
export type Video = "own" | { url: string; seconds: number };

export type LessonSpec = {
  title: string;
  description: string;
  video: Video;
  preview?: boolean;
  resources?: LessonResource[];
};
export type ModuleSpec = { title: string; description: string; lessons: LessonSpec[] };
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
  /** Opens to members from this level on (access 'level'); owners, admins and moderators always. */
  unlockLevel?: number;
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
  {
    // Unlocked at level 3: member@hearth.test, a plain member here below level 3, sees its lock.
    community: "python-for-data-people",
    title: "Automate Your Reports",
    description:
      "For members who have found their feet: turn a weekly spreadsheet chore into a script that " +
      "fetches, cleans and charts the data, then runs on a schedule.",
    price: 0,
    status: "published",
    ageDays: 120,
    unlockLevel: 3,
    modules: [
      {
        title: "From notebook to script",
        description: "Taking the steps you click through every week and writing them down once.",
        lessons: [
          {
            title: "What to automate first",
            description: "Pick the report that costs you the most time and list its steps.",
            video: "own",
          },
          {
            title: "A script that runs the notebook's steps",
            description: "Functions, a main block and paths that work on any machine.",
            video: TALKS.vimeoPlayer,
            resources: [{ title: LINKS.pandas.title, url: LINKS.pandas.url }],
          },
        ],
      },
      {
        title: "Running on a schedule",
        description: "Letting the computer do it on Monday morning.",
        lessons: [
          {
            title: "Charts saved as files",
            description: "Write each chart to a PNG with a dated name.",
            video: TALKS.vimeoMountain,
          },
          {
            title: "Schedule it and get the result by email",
            description: "A scheduled task, a log file and a short email with the charts attached.",
            video: TALKS.vimeoPlayer,
          },
        ],
      },
    ],
  },
];
