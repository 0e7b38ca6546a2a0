import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createCourseSchema,
  createLessonSchema,
  moduleSchema,
  reorderSchema,
  updateCourseSchema,
  updateLessonSchema,
} from "#shared/courses.schemas";
import { LOCK_REASONS } from "#shared/courses";
import { COURSE_ACCESS_MODES } from "#shared/payments";
import { COMMUNITY_ROLES } from "#shared/roles";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { completeLesson, createLesson, deleteLesson, reorderLessons, updateLesson } from "./courses.lessons";
import { createModule, deleteModule, reorderModules, updateModule } from "./courses.modules";
import { findCourse, listCourses } from "./courses.read";
import { createCourse, deleteCourse, purchaseCourse, reorderCourses, updateCourse } from "./courses.service";
import { sendJsonText } from "#server/lib/json-reply";

const courseDto = z.object({
  id: z.string(),
  community_id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number().describe("A sold course's price in the community's currency units; 0 otherwise"),
  currency: z.string(),
  access: z.enum(COURSE_ACCESS_MODES),
  tier_ids: z.array(z.string()).describe("The tiers that open a 'tiers' course"),
  tier_names: z.array(z.string()).describe("Their names, in the community's order"),
  unlock_level: z.number().nullable().describe("The level that opens a 'level' course (2–9); null otherwise"),
  unlock_level_name: z.string().nullable().describe("That level's name in the community"),
  viewer_level: z
    .number()
    .describe("The viewer's level in the community when the course unlocks at a level; 1 otherwise"),
  lock_reason: z.enum(LOCK_REASONS).nullable().describe("Why the viewer has no access: join, purchase, tier or level"),
  status: z.enum(["draft", "published"]),
  order_index: z.number(),
  thumbnail_url: z.string().nullable(),
  has_access: z.boolean(),
  lessons_count: z.number(),
  completed_count: z.number(),
  progress: z.number().describe("Percent of lessons the viewer completed, 0–100"),
});

const lessonDto = z.object({
  id: z.string(),
  module_id: z.string(),
  title: z.string(),
  description: z.string(),
  video_url: z.string().nullable().describe("null when the lesson is locked for the viewer"),
  video_duration: z.number().nullable().describe("seconds"),
  is_preview: z.boolean(),
  order_index: z.number(),
  resources: z.array(z.object({ title: z.string(), url: z.string() })),
  completed: z.boolean(),
  locked: z.boolean(),
  lock_reason: z.enum(LOCK_REASONS).nullable(),
});

const courseDetail = z.object({
  course: courseDto,
  community: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  modules: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      order_index: z.number(),
      lessons: z.array(lessonDto),
    }),
  ),
  viewer_role: z.enum(COMMUNITY_ROLES).nullable(),
  can_manage: z.boolean(),
});

const courseList = z.object({ items: z.array(courseDto), can_manage: z.boolean() });
const communityParams = z.object({ communityId: z.string().min(1).max(120) });
const courseParams = z.object({ courseId: z.string().max(60) });
const moduleParams = z.object({ moduleId: z.string().max(60) });
const lessonParams = z.object({ lessonId: z.string().max(60) });
const tags = ["courses"];

/** SPEC §2 Courses tab, create course, add lesson; §4 drafts and completion; §6 who sees and builds what. */
export const courseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/courses",
    {
      schema: {
        tags,
        summary: "The Courses tab: published courses (drafts too for owners and admins) with the viewer's progress",
        params: communityParams,
        response: { 200: courseList, ...errorResponses },
      },
    },
    async (request) => listCourses({ ctx, viewer: await ctx.viewer(request), idOrSlug: request.params.communityId }),
  );

  app.post(
    "/api/communities/:communityId/courses",
    {
      schema: {
        tags,
        summary: "Create a course (owner, admin): a draft with the module 'Module 1: Introduction'",
        params: communityParams,
        body: createCourseSchema,
        response: { 201: courseDetail, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      const created = await createCourse({ ctx, viewer, idOrSlug: request.params.communityId, input: request.body });
      return reply.status(201).send(created);
    },
  );

  app.put(
    "/api/communities/:communityId/courses/order",
    {
      schema: {
        tags,
        summary: "Reorder the community's courses (owner, admin): every course id once, in the new order",
        params: communityParams,
        body: reorderSchema,
        response: { 200: courseList, ...errorResponses },
      },
    },
    async (request) =>
      reorderCourses({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        ids: request.body.ids,
      }),
  );

  app.get(
    "/api/courses/:courseId",
    {
      schema: {
        tags,
        summary:
          "One course: modules and lessons in order, completions, access; locked lessons carry no video or resources",
        params: courseParams,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request, reply) => {
      const detail = await findCourse({ ctx, viewer: await ctx.viewer(request), courseId: request.params.courseId });
      // Sent as built (findCourse builds every field by hand, locked lessons without video or
      // resources): validating a course of 1,000 lessons against the schema cost more than the queries.
      return sendJsonText(reply, JSON.stringify(detail));
    },
  );

  app.patch(
    "/api/courses/:courseId",
    {
      schema: {
        tags,
        summary: "Edit, publish or unpublish a course (owner, admin)",
        params: courseParams,
        body: updateCourseSchema,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      updateCourse({
        ctx,
        viewer: await ctx.requireViewer(request),
        courseId: request.params.courseId,
        input: request.body,
      }),
  );

  app.delete(
    "/api/courses/:courseId",
    {
      schema: {
        tags,
        summary: "Delete a course with its modules, lessons and their files (owner, admin)",
        params: courseParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteCourse({ ctx, viewer: await ctx.requireViewer(request), courseId: request.params.courseId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/courses/:courseId/purchase",
    {
      schema: {
        tags,
        summary: "Simulated purchase of a course sold separately (no real charge; recorded as a course entitlement)",
        params: courseParams,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      purchaseCourse({ ctx, viewer: await ctx.requireViewer(request), courseId: request.params.courseId }),
  );

  app.post(
    "/api/courses/:courseId/modules",
    {
      schema: {
        tags,
        summary: "Add a module at the end (owner, admin)",
        params: courseParams,
        body: moduleSchema,
        response: { 201: courseDetail, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      return reply
        .status(201)
        .send(await createModule({ ctx, viewer, courseId: request.params.courseId, input: request.body }));
    },
  );

  app.put(
    "/api/courses/:courseId/modules/order",
    {
      schema: {
        tags,
        summary: "Reorder a course's modules (owner, admin)",
        params: courseParams,
        body: reorderSchema,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      reorderModules({
        ctx,
        viewer: await ctx.requireViewer(request),
        courseId: request.params.courseId,
        ids: request.body.ids,
      }),
  );

  app.patch(
    "/api/modules/:moduleId",
    {
      schema: {
        tags,
        summary: "Rename or describe a module (owner, admin)",
        params: moduleParams,
        body: moduleSchema.partial().strict(),
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      updateModule({
        ctx,
        viewer: await ctx.requireViewer(request),
        moduleId: request.params.moduleId,
        input: request.body,
      }),
  );

  app.delete(
    "/api/modules/:moduleId",
    {
      schema: {
        tags,
        summary: "Delete a module with its lessons (owner, admin)",
        params: moduleParams,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      deleteModule({ ctx, viewer: await ctx.requireViewer(request), moduleId: request.params.moduleId }),
  );

  app.post(
    "/api/modules/:moduleId/lessons",
    {
      schema: {
        tags,
        summary: "Add a lesson at the end of a module (owner, admin): title and a video URL or upload required",
        params: moduleParams,
        body: createLessonSchema,
        response: { 201: courseDetail, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      return reply
        .status(201)
        .send(await createLesson({ ctx, viewer, moduleId: request.params.moduleId, input: request.body }));
    },
  );

  app.put(
    "/api/modules/:moduleId/lessons/order",
    {
      schema: {
        tags,
        summary: "Reorder a module's lessons (owner, admin)",
        params: moduleParams,
        body: reorderSchema,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      reorderLessons({
        ctx,
        viewer: await ctx.requireViewer(request),
        moduleId: request.params.moduleId,
        ids: request.body.ids,
      }),
  );

  app.patch(
    "/api/lessons/:lessonId",
    {
      schema: {
        tags,
        summary: "Edit a lesson or move it to another module of the course (owner, admin)",
        params: lessonParams,
        body: updateLessonSchema,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      updateLesson({
        ctx,
        viewer: await ctx.requireViewer(request),
        lessonId: request.params.lessonId,
        input: request.body,
      }),
  );

  app.delete(
    "/api/lessons/:lessonId",
    {
      schema: {
        tags,
        summary: "Delete a lesson and its uploaded video (owner, admin)",
        params: lessonParams,
        response: { 200: courseDetail, ...errorResponses },
      },
    },
    async (request) =>
      deleteLesson({ ctx, viewer: await ctx.requireViewer(request), lessonId: request.params.lessonId }),
  );

  app.post(
    "/api/lessons/:lessonId/complete",
    {
      schema: {
        tags,
        summary: "Mark a lesson complete (recorded once); answers the course progress",
        params: lessonParams,
        response: {
          200: z.object({
            course_id: z.string(),
            lessons_count: z.number(),
            completed_count: z.number(),
            progress: z.number(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      completeLesson({ ctx, viewer: await ctx.requireViewer(request), lessonId: request.params.lessonId }),
  );
};
