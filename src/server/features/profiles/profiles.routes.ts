import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_LEVEL, MIN_LEVEL } from "#shared/levels";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { USERNAME_RE, normalizeUsername } from "#shared/validation";
import { notificationSettingsSchema, profileUpdateSchema } from "#shared/validation.schemas";
import type { AppContext, Viewer } from "#server/context";
import { isUsernameTaken } from "#server/lib/auth";
import { AppError } from "#server/lib/errors";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses, uploadResult } from "#server/lib/schemas";
import { filePart } from "#server/lib/uploads";
import {
  findMe,
  findNotificationSettings,
  findPublicProfile,
  removeAvatar,
  replaceAvatar,
  updateNotificationSettings,
  updateProfile,
} from "./profiles.service";
import { sendJsonText } from "#server/lib/json-reply";

const profileDto = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
  headline: z.string(),
  bio: z.string(),
  location: z.string(),
  timezone: z.string(),
  language: z.string(),
  website_url: z.string(),
  twitter_url: z.string(),
  facebook_url: z.string(),
  instagram_url: z.string(),
  linkedin_url: z.string(),
  email_public: z.boolean(),
  allow_messages: z.boolean(),
  show_in_directory: z.boolean(),
  created_at: z.string(),
});

/**
 * What anyone may read of a profile. The fields are named one by one, so a field added to the
 * profile stays private until it is listed here.
 */
const publicProfileDto = profileDto
  .pick({
    user_id: true,
    username: true,
    full_name: true,
    avatar_url: true,
    headline: true,
    bio: true,
    location: true,
    website_url: true,
    twitter_url: true,
    facebook_url: true,
    instagram_url: true,
    linkedin_url: true,
    allow_messages: true,
  })
  .extend({
    email: z.string().nullable(),
    joined_at: z.string(),
    levels: z
      .array(
        z.object({
          community_id: z.string(),
          community_name: z.string(),
          slug: z.string(),
          level: z.number().int().min(MIN_LEVEL).max(MAX_LEVEL),
          level_name: z.string(),
        }),
      )
      .describe("Their level in each community the caller shares with them (none when signed out), highest first"),
  });

const meDto = z.object({
  user: z
    .object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      email_verified: z.boolean(),
      two_factor_enabled: z.boolean(),
    })
    .nullable(),
  profile: profileDto.nullable(),
});

const flagsDto = z.object({
  posts: z.boolean(),
  comments: z.boolean(),
  announcements: z.boolean(),
  events: z.boolean(),
});

const settingsDto = z.object({
  global_enabled: z.boolean(),
  email_enabled: z.boolean(),
  in_app_enabled: z.boolean(),
  push_enabled: z.boolean(),
  community_settings: z.record(z.string(), flagsDto),
  /** The communities the viewer belongs to, with their effective switches (all on by default). */
  communities: z.array(
    z.object({ id: z.string(), slug: z.string(), name: z.string(), icon_url: z.string().nullable(), flags: flagsDto }),
  ),
});

/** The options of a route where the signed-in person changes something of their own. */
const ownUpdate = <Body extends z.ZodType, Result extends z.ZodType>(summary: string, body: Body, result: Result) => ({
  schema: { tags: ["profiles"], summary, body, response: { 200: result, ...errorResponses } },
});

/** GET /api/me's body per cached viewer object (issue 23: no schema pass on every request). */
const meBodies = new WeakMap<Viewer, string>();

export const profileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/me",
    {
      schema: {
        tags: ["profiles"],
        summary: "The signed-in user and profile (nulls when signed out)",
        response: { 200: meDto },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.viewer(request);
      if (!viewer) return { user: null, profile: null };
      // The answer is the viewer's alone: serialized (through meDto) once per cached viewer, which a
      // change to the session, user or profile replaces in every process (lib/session.ts).
      let body = meBodies.get(viewer);
      if (body === undefined) meBodies.set(viewer, (body = JSON.stringify(meDto.parse(findMe({ viewer })))));
      return sendJsonText(reply, body);
    },
  );

  app.patch(
    "/api/me/profile",
    ownUpdate("Update the signed-in user's profile", profileUpdateSchema, profileDto),
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return updateProfile({ ctx, userId: viewer.id, input: request.body });
    },
  );

  app.get(
    "/api/profiles/username-available",
    {
      schema: {
        tags: ["profiles"],
        summary: "Whether a username is free (the signed-in user's own counts as free)",
        querystring: z.object({ username: z.string().max(100) }),
        response: { 200: z.object({ available: z.boolean(), message: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      await ctx.rateLimiter.hit(`username:ip:${request.ip}`, RATE_RULES.usernameCheckPerIp);
      const username = normalizeUsername(request.query.username);
      if (!USERNAME_RE.test(username)) throw new AppError("VALIDATION", MSG.usernameInvalid);
      const viewer = await ctx.viewer(request);
      const available = !(await isUsernameTaken(ctx.db, username, viewer?.id));
      return { available, message: available ? MSG.usernameAvailable : MSG.usernameTaken };
    },
  );

  app.get(
    "/api/profiles/:username",
    {
      schema: {
        tags: ["profiles"],
        summary: "A user's public profile",
        params: z.object({ username: z.string().max(100) }),
        response: {
          200: publicProfileDto,
          ...errorResponses,
        },
      },
    },
    async (request) => findPublicProfile({ ctx, username: request.params.username, viewer: await ctx.viewer(request) }),
  );

  app.post(
    "/api/me/avatar",
    {
      schema: {
        tags: ["profiles"],
        summary: "Upload an avatar (multipart field `file`, an image under 5 MB)",
        consumes: ["multipart/form-data"],
        response: { 200: uploadResult, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const part = await filePart(request, LIMITS.avatarMaxBytes, {
        missing: MSG.avatarNotImage,
        tooLarge: MSG.avatarTooLarge,
      });
      return replaceAvatar({ ctx, userId: viewer.id, file: part.file, name: part.filename });
    },
  );

  app.delete(
    "/api/me/avatar",
    { schema: { tags: ["profiles"], summary: "Remove the avatar", response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      await removeAvatar({ ctx, userId: viewer.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/me/notification-settings",
    {
      schema: {
        tags: ["profiles"],
        summary: "Notification settings",
        response: { 200: settingsDto, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return findNotificationSettings({ ctx, userId: viewer.id });
    },
  );

  app.patch(
    "/api/me/notification-settings",
    ownUpdate("Update notification settings", notificationSettingsSchema, settingsDto),
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return updateNotificationSettings({ ctx, userId: viewer.id, input: request.body });
    },
  );
};
