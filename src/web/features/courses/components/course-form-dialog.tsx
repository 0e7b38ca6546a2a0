import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "#web/lib/toast";
import type { z } from "zod";
import { COURSE_LIMITS, COURSE_MESSAGES } from "#shared/courses";
import { createCourseSchema } from "#shared/courses.schemas";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { Field, TextareaField, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { fileKindOf, fileTooLarge, useFileUpload } from "#web/lib/upload-file";
import { UPLOAD_MESSAGES, acceptedExtensions } from "#shared/uploads";
import { useCourseMutations, useCreateCourse } from "../api/courses";
import { coursePath } from "../format";
import { CourseAccessField } from "./course-access-field";
import { type CourseDialogProps, courseErrorText, FormButtons, resetOnClose } from "./dialog-parts";

type Input = z.input<typeof createCourseSchema>;
type Output = z.output<typeof createCourseSchema>;

/** "Create course" (owners and admins): a draft with a first module, then its page. */
export function CreateCourseDialog({
  open,
  onOpenChange,
  community,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  community: { id: string; slug: string };
}) {
  const navigate = useNavigate();
  const create = useCreateCourse(community.id);
  return (
    <Dialog open={open} onOpenChange={resetOnClose(create, onOpenChange)}>
      <DialogContent
        title="Create course"
        description="It starts as a draft that only owners and admins see, with a first module ready for lessons."
        size="md"
      >
        <CourseForm
          communityId={community.id}
          submitLabel="Create course"
          error={create.error ? courseErrorText(create.error, COURSE_MESSAGES.createFailed) : null}
          onCancel={() => onOpenChange(false)}
          onSubmit={async (values) => {
            const detail = await create.mutateAsync({
              ...values,
              // Only a course that unlocks at a level names one.
              unlock_level: values.access === "level" ? values.unlock_level : undefined,
            });
            toast.success(COURSE_MESSAGES.created);
            onOpenChange(false);
            navigate(coursePath(community.slug, detail.course.id));
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** Edit a course's title, description, access (tiers, price or level). */
export function EditCourseDialog({ open, onOpenChange, detail }: CourseDialogProps) {
  const { update } = useCourseMutations(detail.course.id);
  const { course } = detail;
  return (
    <Dialog open={open} onOpenChange={resetOnClose(update, onOpenChange)}>
      <DialogContent title="Edit course" size="md">
        <CourseForm
          communityId={detail.community.id}
          defaults={{
            title: course.title,
            description: course.description,
            price: course.price,
            access: course.access,
            tier_ids: course.tier_ids,
            unlock_level: course.unlock_level ?? undefined,
            thumbnail_url: course.thumbnail_url,
          }}
          submitLabel="Save changes"
          error={update.error ? courseErrorText(update.error, "Failed to save the course") : null}
          onCancel={() => onOpenChange(false)}
          onSubmit={async ({ title, description, price, access, tier_ids, unlock_level, thumbnail_url }) => {
            await update.mutateAsync({
              title,
              description,
              access,
              ...(access === "tiers" ? { tier_ids } : {}),
              ...(access === "sold" ? { price } : {}),
              ...(access === "level" ? { unlock_level } : {}),
              thumbnail_url: thumbnail_url ?? null,
            });
            toast.success("Course saved");
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function CourseForm({
  communityId,
  defaults = { title: "", description: "", price: 0, access: "members", tier_ids: [] },
  submitLabel,
  error,
  onCancel,
  onSubmit,
}: {
  communityId: string;
  defaults?: Input;
  submitLabel: string;
  error: string | null;
  onCancel: () => void;
  onSubmit: (values: Output) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Output>({ resolver: zodResolver(createCourseSchema), defaultValues: defaults });
  const thumbnail = useWatch({ control, name: "thumbnail_url" });
  const upload = useFileUpload({
    communityId,
    uploadType: "courses",
    failedMessage: UPLOAD_MESSAGES.uploadFailed,
    check: (file) => {
      if (fileKindOf(file) !== "image") return UPLOAD_MESSAGES.invalidFileType(acceptedExtensions(["image"]));
      return fileTooLarge(file, "image") ? UPLOAD_MESSAGES.fileSizeExceeds(10) : null;
    },
  });
  useEffect(() => {
    if (upload.state.status === "done") {
      const { result } = upload.state;
      setValue("thumbnail_url", result.variants?.medium ?? result.url, { shouldDirty: true });
    }
  }, [upload.state, setValue]);
  const uploading = upload.state.status === "uploading";

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch {
      // shown from the mutation's error
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <TextField
        label="Title"
        placeholder="e.g. Watercolor foundations"
        autoComplete="off"
        maxLength={COURSE_LIMITS.titleMax}
        autoFocus
        required
        error={errors.title?.message}
        {...register("title")}
      />
      <TextareaField
        label="Description"
        placeholder="What will members learn?"
        rows={4}
        maxLength={COURSE_LIMITS.descriptionMax}
        required
        error={errors.description?.message}
        {...register("description")}
      />
      <CourseAccessField communityId={communityId} control={control} register={register} errors={errors} />
      <Field
        label="Thumbnail (optional)"
        hint="JPEG, PNG, WebP or GIF up to 10MB; shown on the course card."
        error={upload.state.status === "error" ? upload.state.error : undefined}
      >
        {(ids) => (
          <div className="flex items-center gap-4">
            <div className="flex h-16 w-28 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-stone-200 bg-stone-50 text-xs text-stone-500">
              {thumbnail ? (
                <img
                  src={thumbnail}
                  alt="Course thumbnail"
                  width={112}
                  height={64}
                  className="h-full w-full object-cover"
                />
              ) : uploading ? (
                `${Math.round(upload.state.status === "uploading" ? upload.state.progress * 100 : 0)}%`
              ) : (
                "No image"
              )}
            </div>
            <div className="flex flex-wrap gap-2">
              <input
                {...ids}
                type="file"
                accept="image/jpeg,image/png,image/webp,image/gif"
                className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-100 file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-stone-200"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) upload.start(file);
                  e.target.value = "";
                }}
              />
              {thumbnail && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    upload.reset();
                    setValue("thumbnail_url", null, { shouldDirty: true });
                  }}
                >
                  Remove image
                </Button>
              )}
            </div>
          </div>
        )}
      </Field>
      <FormButtons onCancel={onCancel} submitLabel={submitLabel} pending={isSubmitting} disabled={uploading} />
    </form>
  );
}
