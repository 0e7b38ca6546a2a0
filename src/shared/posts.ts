export const POST_TYPES = ["text", "image", "video", "poll", "link"] as const;
export type PostType = (typeof POST_TYPES)[number];

/** Who may read a post (SPEC §6; the rule is `mayViewPost` in roles.ts), narrowest last. */
export const POST_VISIBILITIES = ["public", "members", "admins"] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];
export const POST_VISIBILITY_LABELS: Record<PostVisibility, string> = {
  public: "Public",
  members: "Members only",
  admins: "Admins only",
};
export const isPostVisibility = (value: unknown): value is PostVisibility =>
  typeof value === "string" && (POST_VISIBILITIES as readonly string[]).includes(value);

/** What a post's media_urls may hold. */
export const MEDIA_TYPES = ["image", "video", "document"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

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

/** The marker on a post or comment hidden after reports (issue 22): its author and moderators see it. */
export const HIDDEN_PENDING_REVIEW = "Hidden pending review";
