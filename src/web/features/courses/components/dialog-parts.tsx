import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
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

/** The failure of a module or lesson form's last save, above its fields. */
export function SaveError({ error, fallback }: { error: unknown; fallback: string }) {
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
