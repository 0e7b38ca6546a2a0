import { z } from "zod";
import { MSG } from "./messages";
import {
  DEFAULT_POLL_HOURS,
  firstUrl,
  MEDIA_TYPES,
  POLL_DURATIONS,
  POST_LIMITS,
  POST_TYPES,
  POST_VISIBILITIES,
  videoEmbed,
} from "./posts";

// What a post stores in its jsonb columns (the Drizzle columns and the API's post take their types from here).

/** One entry of a post's media_urls. */
export const mediaItemSchema = z.object({
  type: z.enum(MEDIA_TYPES),
  url: z.string(),
  thumbnail: z.string().optional(),
  medium: z.string().optional(),
  duration: z.number().optional(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const pollOptionSchema = z.object({ id: z.string(), text: z.string(), votes: z.number() });
export type PollOption = z.infer<typeof pollOptionSchema>;

/** A poll as stored in poll_data, with its counts. */
export const pollDataSchema = z.object({
  options: z.array(pollOptionSchema),
  duration_hours: z.number(),
  expires_at: z.string().nullable(),
  total_votes: z.number(),
});
export type PollData = z.infer<typeof pollDataSchema>;

export const linkPreviewSchema = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  image: z.string().nullable(),
});
export type LinkPreview = z.infer<typeof linkPreviewSchema>;

/** Images a post may carry: files stored by Hearth, never links elsewhere. */
const ownMedia = z
  .string()
  .max(300)
  .regex(/^\/media\/[\w./-]+$/, "Images must be uploaded to Hearth");

export const postImageSchema = z
  .object({ url: ownMedia, medium: ownMedia.optional(), thumbnail: ownMedia.optional() })
  .strict();

export const createPostSchema = z
  .object({
    type: z.enum(POST_TYPES).default("text"),
    content: z.string(MSG.enterContent).max(POST_LIMITS.contentMax, "Posts can be at most 10,000 characters"),
    category_id: z.uuid().nullable().optional(),
    visibility: z.enum(POST_VISIBILITIES).optional(),
    images: z.array(postImageSchema).max(POST_LIMITS.imagesMax, "At most 10 images").optional(),
    video_url: z.string().trim().max(500).optional(),
    poll: z
      .object({
        options: z.array(z.string().max(POST_LIMITS.pollOptionMax, "Poll options can be at most 120 characters")),
        duration_hours: z
          .number()
          .int()
          .refine((h) => POLL_DURATIONS.some((d) => d.hours === h), "Choose one of the poll durations")
          .default(DEFAULT_POLL_HOURS),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const blank = v.content.trim() === "";
    if ((v.type === "text" || v.type === "link") && blank) {
      ctx.addIssue({ code: "custom", message: MSG.enterContent, path: ["content"] });
    } else if (v.type === "link" && !firstUrl(v.content)) {
      ctx.addIssue({
        code: "custom",
        message: "Please include a link starting with http:// or https://",
        path: ["content"],
      });
    }
    if (v.type === "image" && !v.images?.length) {
      ctx.addIssue({ code: "custom", message: "Please add at least one image", path: ["images"] });
    }
    if (v.type === "video" && !(v.video_url && videoEmbed(v.video_url))) {
      ctx.addIssue({
        code: "custom",
        message: "Please add a YouTube, Vimeo or video file link, or upload a video",
        path: ["video_url"],
      });
    }
    if (v.type === "poll") {
      const options = (v.poll?.options ?? []).map((o) => o.trim()).filter(Boolean);
      if (options.length < POST_LIMITS.pollOptionsMin) {
        ctx.addIssue({ code: "custom", message: MSG.pollNeedsTwoOptions, path: ["poll", "options"] });
      } else if (options.length > POST_LIMITS.pollOptionsMax) {
        ctx.addIssue({ code: "custom", message: "A poll can have at most 10 options", path: ["poll", "options"] });
      }
    }
  });
export type CreatePostInput = z.infer<typeof createPostSchema>;

export const updatePostSchema = z
  .object({
    content: z.string().max(POST_LIMITS.contentMax, "Posts can be at most 10,000 characters"),
    category_id: z.uuid().nullable(),
  })
  .partial()
  .strict();

export const commentSchema = z
  .object({
    content: z
      .string(MSG.enterContent)
      .trim()
      .min(1, MSG.enterContent)
      .max(POST_LIMITS.commentMax, "Comments can be at most 5,000 characters"),
    parent_id: z.uuid().nullable().optional(),
  })
  .strict();
