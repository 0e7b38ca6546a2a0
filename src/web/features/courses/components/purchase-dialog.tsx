import { GraduationCap } from "lucide-react";
import { useRef } from "react";
import { toast } from "#web/lib/toast";
import { SimulatedCardForm } from "#web/features/billing";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { useCourseMutations } from "../api/courses";
import { allLessons, coursePriceText, lessonsText } from "../format";
import { type CourseDialogProps, courseErrorText, resetOnClose } from "./dialog-parts";

/** Buying a paid course: the simulated card form, then POST …/purchase, and the lessons unlock. */
export function PurchaseDialog({ open, onOpenChange, detail }: CourseDialogProps) {
  const { purchase } = useCourseMutations(detail.course.id);
  // Once bought, the Buy buttons are gone: focus goes to the unlocked lesson instead.
  const bought = useRef(false);
  const { course } = detail;
  const price = coursePriceText(course.price, course.currency);
  const closeResets = resetOnClose(purchase, onOpenChange);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // No closing halfway through the payment.
        if (!purchase.isPending) closeResets(next);
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!bought.current) return;
          event.preventDefault();
          document.getElementById("lesson-title")?.focus();
        }}
        title="Buy this course"
        description="One payment unlocks every lesson of the course."
        size="md"
      >
        <div className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
          <div className="mb-5 flex items-center gap-3 rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-100 text-brand-800">
              <GraduationCap className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold text-stone-900">{course.title}</p>
              <p className="text-sm text-stone-600">
                {lessonsText(allLessons(detail).length)} · {detail.community.name}
              </p>
            </div>
            <p className="text-lg font-bold text-stone-900 tabular-nums">{price}</p>
          </div>
          <SimulatedCardForm
            submitLabel={`Pay ${price}`}
            error={purchase.error ? courseErrorText(purchase.error, "The purchase did not go through.") : null}
            onCancel={() => onOpenChange(false)}
            onPaid={async () => {
              await purchase.mutateAsync();
              bought.current = true;
              toast.success(`You now have access to ${course.title}.`);
              onOpenChange(false);
            }}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
