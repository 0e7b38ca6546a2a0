import { type FormEvent, useState } from "react";
import { COURSE_LIMITS } from "#shared/courses";
import { moduleSchema } from "#shared/courses.schemas";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { TextareaField, TextField } from "#web/components/ui/field";
import { type CourseModule, useCourseMutations } from "../api/courses";
import { FormButtons, SaveError, saveAndClose } from "./dialog-parts";

/** Add a module at the end of a course, or rename one (owners and admins). */
export function ModuleFormDialog({
  open,
  onOpenChange,
  courseId,
  module,
  suggestedTitle,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  courseId: string;
  module?: Pick<CourseModule, "id" | "title" | "description">;
  suggestedTitle?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={module ? "Edit module" : "Add module"}
        description={module ? undefined : "A new section at the end of the course."}
      >
        <ModuleForm
          courseId={courseId}
          module={module}
          suggestedTitle={suggestedTitle}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function ModuleForm({
  courseId,
  module,
  suggestedTitle,
  onDone,
}: {
  courseId: string;
  module?: Pick<CourseModule, "id" | "title" | "description">;
  suggestedTitle?: string;
  onDone: () => void;
}) {
  const { addModule, updateModule } = useCourseMutations(courseId);
  const mutation = module ? updateModule : addModule;
  const [title, setTitle] = useState(module?.title ?? "");
  const [description, setDescription] = useState(module?.description ?? "");
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = moduleSchema.safeParse({ title, description });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    await saveAndClose(
      () =>
        module
          ? updateModule.mutateAsync({ moduleId: module.id, body: parsed.data })
          : addModule.mutateAsync(parsed.data),
      module ? "Module saved" : "Module added",
      onDone,
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
      <SaveError error={mutation.error} fallback={module ? "Failed to save the module" : "Failed to add the module"} />
      <TextField
        label="Module title"
        placeholder={suggestedTitle ?? "e.g. Module 2: Getting started"}
        autoComplete="off"
        maxLength={COURSE_LIMITS.moduleTitleMax}
        autoFocus
        required
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={error}
      />
      <TextareaField
        label="Description"
        placeholder="Optional"
        rows={2}
        maxLength={COURSE_LIMITS.descriptionMax}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <FormButtons onCancel={onDone} submitLabel={module ? "Save module" : "Add module"} pending={mutation.isPending} />
    </form>
  );
}
