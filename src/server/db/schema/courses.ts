import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { communities } from "./communities";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const courses = pgTable(
  "courses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    communityId: uuid("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    price: numeric("price", { precision: 10, scale: 2, mode: "number" }).notNull().default(0),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("draft"),
    orderIndex: integer("order_index").notNull().default(0),
    thumbnailUrl: text("thumbnail_url"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("courses_community_idx").on(t.communityId, t.orderIndex)],
);

export const courseModules = pgTable(
  "course_modules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
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
    id: uuid("id").primaryKey().defaultRandom(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => courseModules.id, { onDelete: "cascade" }),
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
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("course_lessons_module_idx").on(t.moduleId, t.orderIndex)],
);

export const lessonCompletions = pgTable(
  "lesson_completions",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => courseLessons.id, { onDelete: "cascade" }),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => courseModules.id, { onDelete: "cascade" }),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    completedAt: ts("completed_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.lessonId] }),
    index("lesson_completions_course_idx").on(t.userId, t.courseId),
  ],
);

/** Simulated purchases that grant access to a paid course. */
export const coursePurchases = pgTable(
  "course_purchases",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    amount: numeric("amount", { precision: 10, scale: 2, mode: "number" }).notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
);
