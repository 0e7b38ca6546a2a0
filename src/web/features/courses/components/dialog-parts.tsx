import type { ComponentProps, ReactNode } from "react";
import { COURSE_LIMITS } from "#shared/courses";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { TextareaField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import type { CourseDetail } from "../api/courses";

/** Server answers a person can act on; anything else reads as the spec's generic failure. */
export const SPECIFIC_CODES = ["VALIDATION", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"] as const;

/** A failed course change as a person reads it: the server's specific answer, else `fallback`. */
export const courseErrorText = (error: unknown, fallback: string) => errorMessage(error, fallback, SPECIFIC_CODES);

/** The props of a dialog about one course (edit, purchase). */
export type CourseDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: CourseDetail;
};

/** A dialog's onOpenChange that forgets the mutation's last failure when the dialog closes. */
export const resetOnClose =
  (mutation: { reset: () => void }, onOpenChange: (open: boolean) => void) => (next: boolean) => {
    if (!next) mutation.reset();
    onOpenChange(next);
  };

/** Saves, says so and closes; a failure is shown from the mutation's error (see SaveError). */
export async function saveAndClose(save: () => Promise<unknown>, saved: string, onDone: () => void) {
  try {
    await save();
    toast.success(saved);
    onDone();
  } catch {
    // shown from the mutation's error
  }
}

/** The props of a dialog that adds or edits a part (module, lesson) of a course. */
export type PartDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; courseId: string };

/** A module or lesson form in its dialog; `children` gets the function that closes it. */
export function FormDialog({
  open,
  onOpenChange,
  children,
  ...content
}: Omit<ComponentProps<typeof DialogContent>, "children"> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: (onDone: () => void) => ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content}>{children(() => onOpenChange(false))}</DialogContent>
    </Dialog>
  );
}

/** A module's or lesson's optional description. */
export function DescriptionField({
  placeholder,
  rows,
  value,
  onChange,
}: {
  placeholder: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextareaField
      label="Description"
      placeholder={placeholder}
      rows={rows}
      maxLength={COURSE_LIMITS.descriptionMax}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The failure of a module or lesson form's last save, above its fields. */
function SaveError({ error, fallback }: { error: unknown; fallback: string }) {
  return error ? <FormMessage tone="error">{courseErrorText(error, fallback)}</FormMessage> : null;
}

/** A course form's Cancel and submit buttons; a form with a `note` (null while there is none) says there why it cannot be sent yet. */
export function FormButtons({
  onCancel,
  submitLabel,
  pending,
  disabled,
  note,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  note?: ReactNode;
}) {
  return (
    <div
      className={cn("flex flex-col-reverse gap-3 sm:flex-row sm:justify-end", note !== undefined && "sm:items-center")}
    >
      {note && <p className="text-sm text-stone-600 sm:mr-auto">{note}</p>}
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={pending} disabled={disabled}>
        {submitLabel}
      </Button>
    </div>
  );
}

/** A module or lesson form: its last save's failure above the fields, Cancel and submit below. */
export function PartForm({
  onSubmit,
  error,
  errorFallback,
  buttons,
  children,
}: {
  onSubmit: ComponentProps<"form">["onSubmit"];
  error: unknown;
  errorFallback: string;
  buttons: ComponentProps<typeof FormButtons>;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
      <SaveError error={error} fallback={errorFallback} />
      {children}
      <FormButtons {...buttons} />
    </form>
  );
}
