import { BarChart3, Image as ImageIcon, Link2, type LucideIcon, Plus, Send, Type, Video, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { MSG } from "#shared/messages";
import { UPLOAD_MESSAGES } from "#shared/uploads";
import { DEFAULT_POLL_HOURS, POLL_DURATIONS, POST_LIMITS, type PostType, firstUrl, videoEmbed } from "#shared/posts";
import { createPostSchema } from "#shared/posts.schemas";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { Select } from "#web/components/ui/select";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { fileKindOf, fileTooLarge, useFileUpload } from "#web/lib/upload-file";
import { type NewPost, type PostVisibility, useCreatePost } from "../api/create-post";
import { ImagePicker } from "./image-picker";
import { displayHost } from "./linkify";
import { PostVideo } from "./post-video";
import { useImageUploads } from "./use-image-uploads";
import { VideoUpload } from "./video-upload";

export const POST_MAX_LENGTH = POST_LIMITS.contentMax;

export type ComposerCategory = { id: string; name: string; emoji: string };
export type PostedResult = { id: string; is_approved: boolean; created_at: string };

const NO_CATEGORY = "none";

/** The browser's first check of a picked video (SPEC §5): its type, then its size. */
function videoFileProblem(file: File): string | null {
  if (fileKindOf(file) !== "video") return UPLOAD_MESSAGES.pleaseUploadVideo;
  if (fileTooLarge(file, "video")) return UPLOAD_MESSAGES.videoTooLarge;
  return null;
}

const TYPES: readonly { value: PostType; label: string; icon: LucideIcon; placeholder: string }[] = [
  { value: "text", label: "Text", icon: Type, placeholder: "Write something..." },
  { value: "image", label: "Image", icon: ImageIcon, placeholder: "Say something about your images (optional)" },
  { value: "video", label: "Video", icon: Video, placeholder: "Say something about this video (optional)" },
  { value: "poll", label: "Poll", icon: BarChart3, placeholder: "Ask a question..." },
  { value: "link", label: "Link", icon: Link2, placeholder: "Paste a link and say why it's worth a look" },
];

/**
 * What only the browser knows (uploads under way or failed, a link that is no video). Everything
 * else is the API's own check: the would-be request goes through createPostSchema.
 */
const messages = {
  imagesUploading: "Please wait until your images have uploaded.",
  imagesFailed: "Some images did not upload: retry or remove them.",
  badVideo: "Please add a YouTube or Vimeo link, or a direct https link to an .mp4, .webm or .mov file",
  videoUploading: "Please wait until your video has uploaded.",
};

/**
 * Writes a post in one community: text, images, a video link, a poll or a link. Blank text is
 * ignored (the Post button stays off); categories come from the community; visibility offers
 * Members only to everyone who may post and Admins only to owners and admins.
 */
export function PostComposer({
  communityId,
  categories,
  canChooseVisibility,
  onPosted,
  autoFocus = false,
  className,
}: {
  communityId: string;
  categories: readonly ComposerCategory[];
  /** Owners and admins: may post to admins only. */
  canChooseVisibility: boolean;
  onPosted?: (post: PostedResult) => void;
  autoFocus?: boolean;
  className?: string;
}) {
  const id = useId();
  const [type, setType] = useState<PostType>("text");
  const [content, setContent] = useState("");
  const [categoryId, setCategoryId] = useState(NO_CATEGORY);
  const [visibility, setVisibility] = useState<PostVisibility>("public");
  const [videoUrl, setVideoUrl] = useState("");
  const [videoTouched, setVideoTouched] = useState(false);
  const [pollOptions, setPollOptions] = useState<string[]>(["", ""]);
  const [pollHours, setPollHours] = useState<number>(DEFAULT_POLL_HOURS);
  const [problem, setProblem] = useState<string | null>(null);
  const uploads = useImageUploads(communityId);
  const video = useFileUpload({
    communityId,
    uploadType: "posts",
    failedMessage: UPLOAD_MESSAGES.videoUploadFailed,
    check: videoFileProblem,
  });
  const videoState = video.state;
  const createPost = useCreatePost(communityId);

  const blank = content.trim() === "";
  const tooLong = content.length > POST_MAX_LENGTH;
  const needsText = type === "text" || type === "link";
  const uploading =
    (type === "image" && uploads.images.some((i) => i.status === "uploading")) ||
    (type === "video" && videoState.status === "uploading");
  const videoFile = videoState.status === "done" || videoState.status === "uploading";
  const url = firstUrl(content);
  const embed = videoUrl.trim() ? videoEmbed(videoUrl.trim()) : null;
  const videoError =
    type === "video" && !videoFile && videoTouched && videoUrl.trim() !== "" && !embed ? messages.badVideo : null;
  const current = TYPES.find((t) => t.value === type)!;

  /** The request for the chosen type, or what the browser alone can tell is not ready yet. */
  const draft = (): NewPost | string => {
    const base = {
      content,
      category_id: categoryId === NO_CATEGORY ? null : categoryId,
      visibility,
    };
    switch (type) {
      case "text":
      case "link":
        return { ...base, type };
      case "image": {
        const images = uploads.images;
        if (images.some((i) => i.status === "uploading")) return messages.imagesUploading;
        if (images.some((i) => i.status === "error")) return messages.imagesFailed;
        return {
          ...base,
          type,
          images: images.map((i) => ({
            url: i.result!.url,
            medium: i.result!.variants!.medium,
            thumbnail: i.result!.variants!.thumbnail,
          })),
        };
      }
      case "video":
        if (videoState.status === "uploading") return messages.videoUploading;
        if (videoState.status === "done") return { ...base, type, video_url: videoState.result.url };
        if (videoUrl.trim() && !embed) return messages.badVideo;
        return { ...base, type, video_url: videoUrl.trim() };
      case "poll": {
        const options = pollOptions.map((o) => o.trim()).filter(Boolean);
        return { ...base, type, poll: { options, duration_hours: pollHours } };
      }
    }
  };

  /** The request, or the message saying what is missing: the browser's own, else the API schema's. */
  const build = (): NewPost | string => {
    const body = draft();
    if (typeof body === "string") return body;
    const checked = createPostSchema.safeParse(body);
    return checked.success ? body : (checked.error.issues[0]?.message ?? MSG.createPostFailed);
  };

  const reset = () => {
    setContent("");
    setType("text");
    setVideoUrl("");
    setVideoTouched(false);
    setPollOptions(["", ""]);
    setPollHours(DEFAULT_POLL_HOURS);
    setProblem(null);
    uploads.clear();
    video.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if ((needsText && blank) || tooLong || uploading || createPost.isPending) return;
    const body = build();
    if (typeof body === "string") {
      setProblem(body);
      if (type === "video") setVideoTouched(true);
      return;
    }
    setProblem(null);
    createPost.mutate(body, {
      onSuccess: (post) => {
        reset();
        onPosted?.(post);
      },
    });
  };

  const contentId = `${id}-content`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const hintId = `${id}-hint`;
  const nearLimit = content.length > POST_MAX_LENGTH - 500;
  const error =
    problem ??
    (createPost.isError ? errorMessage(createPost.error, MSG.createPostFailed, ["VALIDATION", "FORBIDDEN"]) : null);
  const linkHint =
    url && (type === "text" || type === "link")
      ? `A preview of ${displayHost(url)} will be attached to your post.`
      : type === "link"
        ? "Paste a link starting with http:// or https://; a preview of it will be attached to your post."
        : null;

  return (
    <form onSubmit={onSubmit} className={cn("space-y-4", className)} noValidate>
      <fieldset>
        <legend className="sr-only">Post type</legend>
        <div className="grid grid-cols-5 gap-1 rounded-xl bg-stone-100 p-1">
          {TYPES.map((t) => (
            <label
              key={t.value}
              className={cn(
                "flex cursor-pointer flex-col items-center justify-center gap-0.5 rounded-lg px-1 py-1.5 text-xs font-semibold transition-colors sm:flex-row sm:gap-1.5 sm:text-sm",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-700",
                type === t.value ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
              )}
            >
              <input
                type="radio"
                name={`${id}-type`}
                value={t.value}
                checked={type === t.value}
                onChange={() => {
                  setType(t.value);
                  setProblem(null);
                }}
                className="sr-only"
              />
              <t.icon className="size-4" aria-hidden="true" />
              {t.label}
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <Label htmlFor={contentId} className="sr-only">
          Post content
        </Label>
        <textarea
          id={contentId}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          placeholder={current.placeholder}
          rows={type === "text" || type === "link" ? 5 : 3}
          // Opened on purpose from the composer button: the writer expects the cursor here.
          autoFocus={autoFocus}
          aria-invalid={tooLong || undefined}
          aria-describedby={
            [error ? errorId : null, nearLimit ? counterId : null, linkHint ? hintId : null]
              .filter(Boolean)
              .join(" ") || undefined
          }
          className={cn(inputClasses, "min-h-24 resize-y py-3 text-base leading-relaxed sm:text-sm")}
        />
        {linkHint && (
          <p id={hintId} className="mt-1.5 flex items-start gap-1.5 text-sm text-stone-600">
            <Link2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {linkHint}
          </p>
        )}
        {nearLimit && (
          <p id={counterId} className={cn("mt-1.5 text-right text-sm", tooLong ? "text-red-700" : "text-stone-600")}>
            {content.length.toLocaleString("en-US")} / {POST_MAX_LENGTH.toLocaleString("en-US")}
          </p>
        )}
      </div>

      {type === "image" && (
        <ImagePicker
          images={uploads.images}
          problems={uploads.problems}
          onAdd={(files) => {
            setProblem(null);
            uploads.add(files);
          }}
          onRemove={uploads.remove}
          onRetry={uploads.retry}
        />
      )}

      {type === "video" && (
        <div className="space-y-3">
          <VideoUpload
            state={videoState}
            onFile={(file) => {
              setProblem(null);
              video.start(file);
            }}
            onCancel={() => {
              setProblem(null);
              video.reset();
            }}
            onRetry={() => videoState.status === "error" && video.start(videoState.file)}
          />
          {!videoFile && (
            <>
              <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-stone-500 uppercase">
                <span className="h-px flex-1 bg-stone-200" />
                or paste a link
                <span className="h-px flex-1 bg-stone-200" />
              </div>
              <div>
                <Label htmlFor={`${id}-video`} className="mb-1.5">
                  Video link
                </Label>
                <input
                  id={`${id}-video`}
                  type="url"
                  inputMode="url"
                  value={videoUrl}
                  onChange={(e) => {
                    setVideoUrl(e.target.value);
                    setProblem(null);
                  }}
                  onBlur={() => setVideoTouched(true)}
                  placeholder="https://www.youtube.com/watch?v=…"
                  aria-invalid={videoError ? true : undefined}
                  aria-describedby={`${id}-video-hint${videoError ? ` ${id}-video-error` : ""}`}
                  className={cn(inputClasses, "h-10")}
                />
                {videoError && (
                  <p id={`${id}-video-error`} className="mt-1.5 text-sm text-red-700">
                    {videoError}
                  </p>
                )}
                <p id={`${id}-video-hint`} className="mt-1.5 text-sm text-stone-600">
                  YouTube, Vimeo, or a direct https link to an .mp4, .webm or .mov file.
                </p>
              </div>
              {embed && <PostVideo url={videoUrl.trim()} title="preview" />}
            </>
          )}
        </div>
      )}

      {type === "poll" && (
        <PollFields
          options={pollOptions}
          onOptionsChange={(options) => {
            setPollOptions(options);
            setProblem(null);
          }}
          hours={pollHours}
          onHoursChange={setPollHours}
        />
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        {categories.length > 0 && (
          <div>
            <Label htmlFor={`${id}-category`} className="mb-1.5">
              Category
            </Label>
            <Select
              id={`${id}-category`}
              value={categoryId}
              onValueChange={setCategoryId}
              options={[
                { value: NO_CATEGORY, label: "No category" },
                ...categories.map((c) => ({ value: c.id, label: c.emoji ? `${c.emoji} ${c.name}` : c.name })),
              ]}
            />
          </div>
        )}
        <div>
          <Label htmlFor={`${id}-visibility`} className="mb-1.5">
            Who can see it
          </Label>
          <Select
            id={`${id}-visibility`}
            value={visibility}
            onValueChange={(v) => setVisibility(v as PostVisibility)}
            options={[
              { value: "public", label: "Public" },
              { value: "members", label: "Members only" },
              ...(canChooseVisibility ? [{ value: "admins", label: "Admins only" }] : []),
            ]}
          />
        </div>
      </div>

      {error && (
        <div id={errorId}>
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}

      <div className="flex items-center justify-end gap-3">
        {uploading && (
          <p className="text-sm text-stone-600" role="status">
            {type === "video" ? "Uploading video…" : "Uploading images…"}
          </p>
        )}
        <Button type="submit" disabled={(needsText && blank) || tooLong || uploading} loading={createPost.isPending}>
          {!createPost.isPending && <Send className="size-4" aria-hidden="true" />}
          Post
        </Button>
      </div>
    </form>
  );
}

function PollFields({
  options,
  onOptionsChange,
  hours,
  onHoursChange,
}: {
  options: readonly string[];
  onOptionsChange: (options: string[]) => void;
  hours: number;
  onHoursChange: (hours: number) => void;
}) {
  const id = useId();
  const max = POST_LIMITS.pollOptionsMax;
  const min = POST_LIMITS.pollOptionsMin;
  const set = (index: number, value: string) => onOptionsChange(options.map((o, i) => (i === index ? value : o)));
  const add = () => {
    onOptionsChange([...options, ""]);
    // Focus the new field once it is there.
    requestAnimationFrame(() => document.getElementById(`${id}-option-${options.length}`)?.focus());
  };
  return (
    <fieldset className="space-y-3 rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200 sm:p-4">
      <legend className="sr-only">Poll</legend>
      <div className="flex items-baseline justify-between gap-3">
        <p className="text-sm font-semibold text-stone-900" aria-hidden="true">
          Options
        </p>
        <p className="text-xs text-stone-600 tabular-nums">
          {options.length} of {max}
        </p>
      </div>
      <ol className="space-y-2">
        {options.map((option, i) => (
          <li key={i} className="flex items-center gap-2">
            <label htmlFor={`${id}-option-${i}`} className="sr-only">
              Option {i + 1}
            </label>
            <input
              id={`${id}-option-${i}`}
              value={option}
              onChange={(e) => set(i, e.target.value)}
              maxLength={POST_LIMITS.pollOptionMax}
              placeholder={`Option ${i + 1}`}
              className={cn(inputClasses, "h-10")}
            />
            {options.length > min && (
              <button
                type="button"
                onClick={() => onOptionsChange(options.filter((_, j) => j !== i))}
                aria-label={`Remove option ${i + 1}`}
                className="flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-stone-500 transition-colors hover:bg-stone-200 hover:text-stone-900"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Button variant="ghost" size="sm" onClick={add} disabled={options.length >= max} className="-ml-1">
          <Plus className="size-4" aria-hidden="true" />
          Add option
        </Button>
        <div className="w-full sm:w-44">
          <Label htmlFor={`${id}-duration`} className="mb-1.5">
            Poll duration
          </Label>
          <Select
            id={`${id}-duration`}
            value={String(hours)}
            onValueChange={(v) => onHoursChange(Number(v))}
            options={POLL_DURATIONS.map((d) => ({ value: String(d.hours), label: d.label }))}
          />
        </div>
      </div>
    </fieldset>
  );
}
