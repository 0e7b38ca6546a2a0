import { z } from "zod";
import { MAX_LEVEL, MIN_LEVEL } from "#shared/levels";
import { POST_TYPES, POST_VISIBILITIES } from "#shared/posts";
import { linkPreviewSchema, mediaItemSchema, pollDataSchema, pollOptionSchema } from "#shared/posts.schemas";

/** A user as shown beside what they wrote or did (userCardSql in posts.queries.ts reads it). */
export const userCard = z.object({
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
});
export type UserCard = z.infer<typeof userCard>;

/** A user's card where a community is known: with their level there (userCardSql with a community). */
export const memberCard = userCard.extend({
  level: z
    .number()
    .int()
    .min(MIN_LEVEL)
    .max(MAX_LEVEL)
    .describe("Their level (1..9) in this community; 1 without points"),
});
export type MemberCard = z.infer<typeof memberCard>;

/**
 * A post as the API answers it: the one description of its shape. toPostDto (posts.queries.ts)
 * builds it field by field and is typed against it; the routes declare it; the feed and the
 * anonymous post page, sent pre-serialized, are checked against it in posts.test.ts.
 */
export const postDto = z.object({
  id: z.string(),
  community_id: z.string(),
  type: z.enum(POST_TYPES),
  content: z.string(),
  visibility: z.enum(POST_VISIBILITIES),
  is_pinned: z.boolean(),
  is_edited: z.boolean(),
  is_approved: z.boolean().describe("false: waiting for approval (shown to its author and moderators)"),
  hidden: z
    .boolean()
    .describe("true: hidden pending review after members reported it (shown to its author and moderators only)"),
  likes_count: z.number(),
  comments_count: z.number(),
  share_count: z.number(),
  category_id: z.string().nullable(),
  media_urls: z.array(mediaItemSchema),
  poll: pollDataSchema
    .extend({
      options: z.array(pollOptionSchema.extend({ votes: z.number().nullable().describe("null until voted or ended") })),
      total_votes: z.number().nullable(),
      closed: z.boolean(),
    })
    .nullable(),
  link_preview: linkPreviewSchema.nullable(),
  created_at: z.string(),
  author: memberCard.nullable(),
  liked: z.boolean(),
  saved: z.boolean(),
  user_vote_index: z.number().nullable(),
});
export type PostDto = z.infer<typeof postDto>;

/** A page of the feed. */
export const postPage = z.object({ items: z.array(postDto), next_cursor: z.string().nullable() });
