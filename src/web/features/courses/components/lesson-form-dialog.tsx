import { Film, Link2, Plus, Trash2, Upload } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { COURSE_LIMITS, COURSE_MESSAGES } from "#shared/courses";
import { createLessonSchema } from "#shared/courses.schemas";
import { UPLOAD_MESSAGES } from "#shared/uploads";
import { Button } from "#web/components/ui/button";
import { Field, inputClasses, TextField } from "#web/components/ui/field";
import { cn } from "#web/lib/cn";
import { fileKindOf, fileTooLarge, useFileUpload } from "#web/lib/upload-file";
import { VideoUpload } from "#web/features/posts";
import { type CourseModule, type Lesson, useCourseMutations } from "../api/courses";
import { DescriptionField, FormDialog, type PartDialogProps, PartForm, saveAndClose } from "./dialog-parts";

/** The browser's first check of a picked video (SPEC §5): its type, then its size. */
function videoFileProblem(file: File): string | null {
  if (fileKindOf(file) !== "video") return UPLOAD_MESSAGES.pleaseUploadVideo;
  if (fileTooLarge(file, "video")) return UPLOAD_MESSAGES.videoTooLarge;
  return null;
}

const isOwnUpload = (url: string | null | undefined) => Boolean(url?.startsWith("/media/"));

type Resource = { key: number; title: string; url: string };
type Errors = { title?: string; video?: string; duration?: string; resources?: Record<number, string> };

/** Add a lesson to a module, or edit one (owners and admins). */
export function LessonFormDialog({
  courseId,
  communityId,
  module,
  lesson,
  ...dialog
}: PartDialogProps & {
  communityId: string;
  module: Pick<CourseModule, "id" | "title">;
  /** The lesson to edit; a new lesson without it. */
  lesson?: Lesson;
}) {
  return (
    <FormDialog
      {...dialog}
      title={lesson ? "Edit lesson" : "Add lesson"}
      description={lesson ? undefined : `A video lesson at the end of ${module.title}.`}
      size="md"
      // An upload in progress is not thrown away by a stray click outside.
      onInteractOutside={(e) => e.preventDefault()}
    >
      {(onDone) => (
        <LessonForm
          courseId={courseId}
          communityId={communityId}
          moduleId={module.id}
          lesson={lesson}
          onDone={onDone}
        />
      )}
    </FormDialog>
  );
}

function LessonForm({
  courseId,
  communityId,
  moduleId,
  lesson,
  onDone,
}: {
  courseId: string;
  communityId: string;
  moduleId: string;
  lesson?: Lesson;
  onDone: () => void;
}) {
  const id = useId();
  const { addLesson, updateLesson } = useCourseMutations(courseId);
  const mutation = lesson ? updateLesson : addLesson;
  const [title, setTitle] = useState(lesson?.title ?? "");
  const [description, setDescription] = useState(lesson?.description ?? "");
  const [mode, setMode] = useState<"link" | "upload">(isOwnUpload(lesson?.video_url) ? "upload" : "link");
  const [url, setUrl] = useState(lesson?.video_url && !isOwnUpload(lesson.video_url) ? lesson.video_url : "");
  const [keptUpload, setKeptUpload] = useState(isOwnUpload(lesson?.video_url) ? lesson!.video_url : null);
  const [duration, setDuration] = useState(
    lesson?.video_duration ? String(Math.max(1, Math.round(lesson.video_duration / 60))) : "",
  );
  const [isPreview, setIsPreview] = useState(lesson?.is_preview ?? false);
  const [resources, setResources] = useState<Resource[]>(
    () => lesson?.resources.map((r, i) => ({ key: i, title: r.title, url: r.url })) ?? [],
  );
  const [nextKey, setNextKey] = useState(resources.length);
  const [errors, setErrors] = useState<Errors>({});
  const upload = useFileUpload({
    communityId,
    uploadType: "courses",
    failedMessage: UPLOAD_MESSAGES.videoUploadFailed,
    check: videoFileProblem,
  });
  const uploadState = upload.state;

  const videoUrl =
    mode === "link" ? url.trim() : uploadState.status === "done" ? uploadState.result.url : (keptUpload ?? "");
  const uploading = mode === "upload" && uploadState.status === "uploading";
  const canSubmit = title.trim() !== "" && videoUrl !== "" && !uploading;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const kept = resources.filter((r) => r.title.trim() || r.url.trim());
    const parsed = createLessonSchema.safeParse({
      title,
      description,
      video_url: videoUrl,
      duration_minutes: duration.trim() === "" ? null : Number(duration),
      is_preview: isPreview,
      resources: kept.map(({ title, url }) => ({ title, url })),
    });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const [field, index] = issue.path;
        if (field === "title") found.title ??= issue.message;
        else if (field === "video_url") found.video ??= issue.message;
        else if (field === "duration_minutes") found.duration ??= issue.message;
        else if (field === "resources" && typeof index === "number") {
          const key = kept[index]?.key;
          if (key !== undefined) found.resources = { [key]: issue.message, ...found.resources };
        }
      }
      setErrors(found);
      return;
    }
    setErrors({});
    await saveAndClose(
      () =>
        lesson
          ? updateLesson.mutateAsync({ lessonId: lesson.id, body: parsed.data })
          : addLesson.mutateAsync({ moduleId, body: parsed.data }),
      lesson ? "Lesson saved" : "Lesson added",
      onDone,
    );
  };

  return (
    <PartForm
      onSubmit={onSubmit}
      error={mutation.error}
      errorFallback={lesson ? "Failed to save the lesson" : COURSE_MESSAGES.lessonFailed}
      buttons={{
        onCancel: onDone,
        submitLabel: lesson ? "Save lesson" : "Add lesson",
        pending: mutation.isPending,
        disabled: !canSubmit,
        note: canSubmit ? null : uploading ? "Waiting for the upload to finish…" : "A title and a video are required.",
      }}
    >
      <TextField
        label="Title"
        placeholder="e.g. Mixing your first colors"
        autoComplete="off"
        maxLength={COURSE_LIMITS.lessonTitleMax}
        autoFocus
        required
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={errors.title}
      />

      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-stone-800">Video</legend>
        <div className="mb-3 inline-flex rounded-lg bg-stone-100 p-1 ring-1 ring-stone-200">
          {(
            [
              { value: "link", label: "Video link", icon: Link2 },
              { value: "upload", label: "Upload a file", icon: Upload },
            ] as const
          ).map((option) => (
            <label
              key={option.value}
              className={cn(
                "inline-flex cursor-pointer items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-semibold transition-colors",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-700",
                mode === option.value ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
              )}
            >
              <input
                type="radio"
                name={`${id}-video-mode`}
                value={option.value}
                checked={mode === option.value}
                onChange={() => {
                  setMode(option.value);
                  setErrors((e) => ({ ...e, video: undefined }));
                }}
                className="sr-only"
              />
              <option.icon className="size-4" aria-hidden="true" />
              {option.label}
            </label>
          ))}
        </div>

        {mode === "link" ? (
          <TextField
            label="Video URL"
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v=…"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setErrors((x) => ({ ...x, video: undefined }));
            }}
            error={errors.video}
            hint="YouTube, Vimeo, or a direct link to an .mp4, .webm or .mov file."
          />
        ) : keptUpload && uploadState.status === "idle" ? (
          <div className="flex items-center gap-3 rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Film className="size-5" aria-hidden="true" />
            </span>
            <p className="min-w-0 flex-1 text-sm text-stone-700">
              <span className="font-semibold text-stone-900">Uploaded video</span>
              <br />
              Stays until you replace it.
            </p>
            <Button variant="secondary" size="sm" onClick={() => setKeptUpload(null)}>
              Replace video
            </Button>
          </div>
        ) : (
          <>
            <VideoUpload
              state={uploadState}
              onFile={(file) => {
                setErrors((x) => ({ ...x, video: undefined }));
                upload.start(file);
              }}
              onCancel={() => upload.reset()}
              onRetry={() => uploadState.status === "error" && upload.start(uploadState.file)}
            />
            {errors.video && <p className="mt-1.5 text-sm text-red-700">{errors.video}</p>}
          </>
        )}
      </fieldset>

      <DescriptionField
        placeholder="What this lesson covers (optional)"
        rows={3}
        value={description}
        onChange={setDescription}
      />

      <Field
        label="Duration (minutes)"
        error={errors.duration}
        hint="Optional. Shown in the outline."
        className="max-w-xs"
      >
        {(ids) => (
          <input
            {...ids}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            max={COURSE_LIMITS.durationMinutesMax}
            value={duration}
            onChange={(e) => {
              setDuration(e.target.value);
              setErrors((x) => ({ ...x, duration: undefined }));
            }}
            className={cn(inputClasses, "h-10 tabular-nums")}
          />
        )}
      </Field>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-stone-800">Resources</legend>
        <p className="-mt-1 text-sm text-stone-600">Links members can open next to the video (worksheets, tools…).</p>
        {resources.map((r, index) => {
          const error = errors.resources?.[r.key];
          return (
            <div key={r.key} className="rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200">
              <div className="grid gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]">
                <input
                  aria-label={`Resource ${index + 1} title`}
                  placeholder="Title"
                  maxLength={COURSE_LIMITS.resourceTitleMax}
                  value={r.title}
                  onChange={(e) =>
                    setResources((list) => list.map((x) => (x.key === r.key ? { ...x, title: e.target.value } : x)))
                  }
                  aria-invalid={error ? true : undefined}
                  className={cn(inputClasses, "h-10")}
                />
                <input
                  aria-label={`Resource ${index + 1} link`}
                  type="url"
                  inputMode="url"
                  placeholder="https://…"
                  value={r.url}
                  onChange={(e) =>
                    setResources((list) => list.map((x) => (x.key === r.key ? { ...x, url: e.target.value } : x)))
                  }
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-res-${r.key}` : undefined}
                  className={cn(inputClasses, "h-10")}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  className="max-sm:justify-self-end"
                  aria-label={`Remove resource ${index + 1}`}
                  onClick={() => setResources((list) => list.filter((x) => x.key !== r.key))}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </div>
              {error && (
                <p id={`${id}-res-${r.key}`} className="mt-1.5 text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
          );
        })}
        {resources.length < COURSE_LIMITS.resourcesMax && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setResources((list) => [...list, { key: nextKey, title: "", url: "" }]);
              setNextKey((k) => k + 1);
            }}
          >
            <Plus className="size-4" aria-hidden="true" />
            Add resource
          </Button>
        )}
      </fieldset>

      <label className="flex cursor-pointer items-start gap-3 rounded-xl p-3 ring-1 ring-stone-200 hover:bg-stone-50">
        <input
          type="checkbox"
          checked={isPreview}
          onChange={(e) => setIsPreview(e.target.checked)}
          className="mt-0.5 size-4 shrink-0 accent-brand-700"
          aria-describedby={`${id}-preview-hint`}
        />
        <span>
          <span className="block text-sm font-semibold text-stone-900">Free preview</span>
          <span id={`${id}-preview-hint`} className="block text-sm text-stone-600">
            Members can watch this lesson before buying a paid course.
          </span>
        </span>
      </label>
    </PartForm>
  );
}
