import { z } from "zod";
import { MSG } from "./messages";

export const POST_TYPES = ["text", "image", "video", "poll", "link"] as const;
export type PostType = (typeof POST_TYPES)[number];

export const POST_VISIBILITIES = [
  { value: "public", label: "Public" },
  { value: "members", label: "Members only" },
  { value: "admins", label: "Admins only" },
] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number]["value"];

/** Poll durations (SPEC §9): 1 hour, 1 day (default), 3 days, 1 week, none (0 = no limit). */
export const POLL_DURATIONS = [
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "1 week" },
  { hours: 0, label: "No time limit" },
] as const;
export const DEFAULT_POLL_HOURS = 24;

export const POST_LIMITS = {
  contentMax: 10_000,
  pollOptionsMin: 2,
  pollOptionsMax: 10,
  pollOptionMax: 120,
  imagesMax: 10,
  /** The feed's image grid shows at most this many, then +N. */
  gridMax: 4,
  commentMax: 5_000,
  warningReasonMax: 500,
} as const;

/** YouTube, Vimeo and direct video files (SPEC §9): the embed to show, or null when unsupported. */
export function videoEmbed(url: string): { kind: "youtube" | "vimeo" | "file"; src: string } | null {
  let u: URL;
  try {
    u = new URL(url, "http://local.invalid");
  } catch {
    return null;
  }
  const own = u.origin === "http://local.invalid";
  // Own uploads of every accepted video type (an AVI plays only where the browser can decode it).
  if (own)
    return /^\/media\/[\w./-]+\.(mp4|webm|mov|avi)$/i.test(u.pathname) ? { kind: "file", src: u.pathname } : null;
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = u.hostname.replace(/^www\.|^m\./, "");
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const id =
      u.pathname === "/watch" ? u.searchParams.get("v") : u.pathname.match(/^\/(?:embed|shorts|live)\/([\w-]+)/)?.[1];
    return id && /^[\w-]{6,20}$/.test(id)
      ? { kind: "youtube", src: `https://www.youtube-nocookie.com/embed/${id}` }
      : null;
  }
  if (host === "youtu.be") {
    const id = u.pathname.slice(1);
    return /^[\w-]{6,20}$/.test(id) ? { kind: "youtube", src: `https://www.youtube-nocookie.com/embed/${id}` } : null;
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const id = u.pathname.match(/(\d{5,12})/)?.[1];
    return id ? { kind: "vimeo", src: `https://player.vimeo.com/video/${id}` } : null;
  }
  if (u.protocol === "https:" && /\.(mp4|webm|mov)$/i.test(u.pathname)) return { kind: "file", src: u.href };
  return null;
}

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
    visibility: z.enum(["public", "members", "admins"]).optional(),
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

/**
 * The first http(s) URL in a post's text (SPEC §5), without trailing punctuation; null if none.
 * Not yet checked: getLinkPreview decides whether it may be fetched.
 */
export function firstUrl(text: string): string | null {
  const m = /(?<![\w@.+-])https?:\/\/[^\s<>"'`]+/i.exec(text);
  if (!m) return null;
  let url = m[0];
  for (;;) {
    const last = url.at(-1);
    if (last && ".,;:!?*_~".includes(last)) url = url.slice(0, -1);
    else if (last === ")" && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1);
    else if (last === "]" && !url.includes("[")) url = url.slice(0, -1);
    else break;
  }
  return /^https?:\/\/[^/?#]/i.test(url) ? url : null;
}
