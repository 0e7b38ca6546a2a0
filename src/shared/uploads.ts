/** File upload rules (SPEC §5, §9): accepted types, sizes and the messages people see. */

export type FileKind = "image" | "video" | "document";

/** Every accepted extension and the type it stands for, by kind (SPEC §5): the one table of them. */
const TYPES: Record<FileKind, Record<string, string>> = {
  image: {
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".webp": "image/webp",
    ".gif": "image/gif",
  },
  video: { ".mp4": "video/mp4", ".mov": "video/quicktime", ".avi": "video/x-msvideo", ".webm": "video/webm" },
  document: {
    ".pdf": "application/pdf",
    ".doc": "application/msword",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  },
};
const MAX_MB: Record<FileKind, number> = { image: 10, video: 500, document: 50 };

const ruleOf = (kind: FileKind) => ({
  extensions: Object.keys(TYPES[kind]),
  mimes: [...new Set(Object.values(TYPES[kind]))],
  maxMb: MAX_MB[kind],
});
export const FILE_KINDS: Record<FileKind, ReturnType<typeof ruleOf>> = {
  image: ruleOf("image"),
  video: ruleOf("video"),
  document: ruleOf("document"),
};

/** `.ext` → type for every accepted upload (how stored files are served, how a nameless type is guessed). */
export const MIME_BY_EXTENSION: Readonly<Record<string, string>> = Object.assign({}, ...Object.values(TYPES));

/** Browsers and tools name AVI files in more than one way. */
const MIME_ALIASES: Record<string, string> = {
  "video/avi": "video/x-msvideo",
  "video/msvideo": "video/x-msvideo",
  "video/vnd.avi": "video/x-msvideo",
};

/** A declared type lowercased, without parameters, with aliases resolved. */
export function canonicalMime(mime: string): string {
  const m = mime.toLowerCase().split(";")[0].trim();
  return MIME_ALIASES[m] ?? m;
}

/** The extension (without the dot) a stored file of this type gets, or null when it is not accepted. */
export function extensionForMime(mime: string): string | null {
  const m = canonicalMime(mime);
  const found = Object.entries(MIME_BY_EXTENSION).find(([, type]) => type === m);
  return found ? found[0].slice(1) : null;
}

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
  const m = canonicalMime(mime);
  return (Object.keys(TYPES) as FileKind[]).find((kind) => FILE_KINDS[kind].mimes.includes(m)) ?? null;
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
