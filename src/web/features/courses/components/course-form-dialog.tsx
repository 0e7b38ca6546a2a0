import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { COURSE_LIMITS, COURSE_MESSAGES, createCourseSchema } from "../../../../shared/courses";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogContent } from "../../../components/ui/dialog";
import { Field, inputClasses, TextareaField, TextField } from "../../../components/ui/field";
import { FormMessage } from "../../../components/ui/form-message";
import { errorMessage } from "../../../lib/api";
import { cn } from "../../../lib/cn";
import { type CourseDetail, useCourseMutations, useCreateCourse } from "../api/courses";
import { coursePath } from "../format";

/** Server answers a person can act on; anything else reads as the spec's generic failure. */
export const SPECIFIC_CODES = ["VALIDATION", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"] as const;

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
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent
        title="Create course"
        description="It starts as a draft that only owners and admins see, with a first module ready for lessons."
        size="md"
      >
        <CourseForm
          submitLabel="Create course"
          error={create.error ? errorMessage(create.error, COURSE_MESSAGES.createFailed, SPECIFIC_CODES) : null}
          onCancel={() => onOpenChange(false)}
          onSubmit={async (values) => {
            const detail = await create.mutateAsync(values);
            toast.success(COURSE_MESSAGES.created);
            onOpenChange(false);
            navigate(coursePath(community.slug, detail.course.id));
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** Edit a course's title, description and price. */
export function EditCourseDialog({
  open,
  onOpenChange,
  detail,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: CourseDetail;
}) {
  const { update } = useCourseMutations(detail.course.id);
  const { course } = detail;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) update.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title="Edit course" size="md">
        <CourseForm
          defaults={{ title: course.title, description: course.description, price: course.price }}
          submitLabel="Save changes"
          error={update.error ? errorMessage(update.error, "Failed to save the course", SPECIFIC_CODES) : null}
          onCancel={() => onOpenChange(false)}
          onSubmit={async ({ title, description, price }) => {
            await update.mutateAsync({ title, description, price });
            toast.success("Course saved");
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function CourseForm({
  defaults = { title: "", description: "", price: 0 },
  submitLabel,
  error,
  onCancel,
  onSubmit,
}: {
  defaults?: Input;
  submitLabel: string;
  error: string | null;
  onCancel: () => void;
  onSubmit: (values: Output) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Output>({ resolver: zodResolver(createCourseSchema), defaultValues: defaults });

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
      <Field
        label="Price (USD)"
        error={errors.price?.message}
        hint="0 makes the course free for every member. Payment is simulated: no real charge is made."
        className="max-w-xs"
      >
        {(ids) => (
          <div className="relative">
            <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-stone-500">
              $
            </span>
            <input
              {...ids}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              max={COURSE_LIMITS.priceMax}
              className={cn(inputClasses, "h-10 pl-7 tabular-nums")}
              {...register("price", { valueAsNumber: true })}
            />
          </div>
        )}
      </Field>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
