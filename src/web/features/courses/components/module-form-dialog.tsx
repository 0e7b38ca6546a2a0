import { type FormEvent, useState } from "react";
import { COURSE_LIMITS } from "#shared/courses";
import { moduleSchema } from "#shared/courses.schemas";
import { TextField } from "#web/components/ui/field";
import { type CourseModule, useCourseMutations } from "../api/courses";
import { DescriptionField, FormDialog, type PartDialogProps, PartForm, saveAndClose } from "./dialog-parts";

/** Add a module at the end of a course, or rename one (owners and admins). */
export function ModuleFormDialog({
  courseId,
  module,
  suggestedTitle,
  ...dialog
}: PartDialogProps & {
  module?: Pick<CourseModule, "id" | "title" | "description">;
  suggestedTitle?: string;
}) {
  return (
    <FormDialog
      {...dialog}
      title={module ? "Edit module" : "Add module"}
      description={module ? undefined : "A new section at the end of the course."}
    >
      {(onDone) => <ModuleForm courseId={courseId} module={module} suggestedTitle={suggestedTitle} onDone={onDone} />}
    </FormDialog>
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
    <PartForm
      onSubmit={onSubmit}
      error={mutation.error}
      errorFallback={module ? "Failed to save the module" : "Failed to add the module"}
      buttons={{ onCancel: onDone, submitLabel: module ? "Save module" : "Add module", pending: mutation.isPending }}
    >
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
      <DescriptionField placeholder="Optional" rows={2} value={description} onChange={setDescription} />
    </PartForm>
  );
}
