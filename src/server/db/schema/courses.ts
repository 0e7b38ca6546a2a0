import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { COURSE_ACCESS_MODES } from "#shared/payments";
import { user } from "./auth";
import { createdAt, money, textRef, timestamps, ts, uuidPk, uuidRef } from "./columns";
import { communities } from "./communities";

export const courses = pgTable(
  "courses",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** The one-time price for a sold course, in the community's currency units (0: not sold). */
    price: money("price").notNull().default(0),
    /** Who may watch: every member, members of chosen tiers, or buyers (issue 18). */
    access: text("access", { enum: COURSE_ACCESS_MODES }).notNull().default("members"),
    tierIds: uuid("tier_ids").array().notNull().default([]),
    /** The level (2..9) that opens a 'level' course to members (issue 20). */
    unlockLevel: smallint("unlock_level"),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("draft"),
    orderIndex: integer("order_index").notNull().default(0),
    thumbnailUrl: text("thumbnail_url"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("courses_community_idx").on(t.communityId, t.orderIndex)],
);

export const courseModules = pgTable(
  "course_modules",
  {
    id: uuidPk(),
    courseId: uuidRef("course_id", () => courses.id),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    orderIndex: integer("order_index").notNull().default(0),
  },
  (t) => [index("course_modules_course_idx").on(t.courseId, t.orderIndex)],
);

export type LessonResource = { title: string; url: string };

export const courseLessons = pgTable(
  "course_lessons",
  {
    id: uuidPk(),
    moduleId: uuidRef("module_id", () => courseModules.id),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    lessonType: text("lesson_type", { enum: ["video"] })
      .notNull()
      .default("video"),
    videoUrl: text("video_url"),
    videoDuration: integer("video_duration"),
    isPreview: boolean("is_preview").notNull().default(false),
    orderIndex: integer("order_index").notNull().default(0),
    resources: jsonb("resources").$type<LessonResource[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index("course_lessons_module_idx").on(t.moduleId, t.orderIndex)],
);

export const lessonCompletions = pgTable(
  "lesson_completions",
  {
    userId: textRef("user_id", () => user.id),
    lessonId: uuidRef("lesson_id", () => courseLessons.id),
    moduleId: uuidRef("module_id", () => courseModules.id),
    courseId: uuidRef("course_id", () => courses.id),
    completedAt: ts("completed_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.lessonId] }),
    index("lesson_completions_course_idx").on(t.userId, t.courseId),
  ],
);
