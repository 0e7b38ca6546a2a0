/** File upload rules (SPEC §5, §9): accepted types, sizes and the messages people see. */

export type FileKind = "image" | "video" | "document";

export const FILE_KINDS: Record<FileKind, { mimes: readonly string[]; extensions: readonly string[]; maxMb: number }> =
  {
    image: {
      mimes: ["image/jpeg", "image/png", "image/webp", "image/gif"],
      extensions: [".jpg", ".jpeg", ".png", ".webp", ".gif"],
      maxMb: 10,
    },
    video: {
      mimes: ["video/mp4", "video/quicktime", "video/x-msvideo", "video/webm"],
      extensions: [".mp4", ".mov", ".avi", ".webm"],
      maxMb: 500,
    },
    document: {
      mimes: [
        "application/pdf",
        "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ],
      extensions: [".pdf", ".doc", ".docx"],
      maxMb: 50,
    },
  };

export const MB = 1024 * 1024;

/** What one account may upload in 24 hours, in bytes (10,000 small files or one 5 GB stream both stop here). */
export const DAILY_UPLOAD_BYTES = 5 * 1024 * MB;

/** Where an upload goes: a community's post or course media. */
export const UPLOAD_TYPES = ["posts", "courses"] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** The kinds each upload type takes. */
export const UPLOAD_KINDS: Record<UploadType | "personal", readonly FileKind[]> = {
  posts: ["image", "video", "document"],
  courses: ["image", "video", "document"],
  personal: ["image"],
};

export function kindOfMime(mime: string): FileKind | null {
  const m = mime.toLowerCase().split(";")[0].trim();
  for (const [kind, rule] of Object.entries(FILE_KINDS) as [FileKind, (typeof FILE_KINDS)[FileKind]][]) {
    if (rule.mimes.includes(m)) return kind;
  }
  // Browsers name AVI files in more than one way.
  if (m === "video/avi" || m === "video/msvideo" || m === "video/vnd.avi") return "video";
  return null;
}

export const acceptedExtensions = (kinds: readonly FileKind[]) => kinds.flatMap((k) => FILE_KINDS[k].extensions);

/** The largest size any of `kinds` allows, in bytes. */
export const maxBytesOf = (kinds: readonly FileKind[]) => Math.max(...kinds.map((k) => FILE_KINDS[k].maxMb)) * MB;

export const UPLOAD_MESSAGES = {
  fileSizeExceeds: (mb: number) => `File size exceeds ${mb}MB limit`,
  invalidFileType: (extensions: readonly string[]) => `Invalid file type. Accepted types: ${extensions.join(", ")}`,
  noFile: "Please choose a file to upload",
  emptyFile: "The file is empty",
  notImage: "File must be an image (JPEG, PNG, WebP, or GIF)",
  imageTooLarge: "Image dimensions are too large",
  tooManyFrames: "Image has too many frames",
  uploadFailed: "Upload failed",
  videoUploadFailed: "Failed to upload video. Please try again.",
  pleaseUploadVideo: "Please upload a video file",
  videoTooLarge: "Video file must be less than 500MB",
  keyExpired: "This upload link has expired. Please try again.",
  dailyQuota: "You have reached today's upload limit. Please try again tomorrow.",
} as const;

/** A file name for display and Content-Disposition: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 200);
  return clean || "file";
}
