import { GraduationCap } from "lucide-react";
import { useNavigate } from "react-router";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { goToCheckout, useStartCheckout } from "#web/features/billing";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { allLessons, coursePriceText, lessonsText } from "../format";
import { type CourseDialogProps, courseErrorText, resetOnClose } from "./dialog-parts";

/**
 * Buying a paid course: a checkout for the course, then its page (the card form, the wait for the
 * confirmation), which comes back here with the lessons open.
 */
export function PurchaseDialog({ open, onOpenChange, detail }: CourseDialogProps) {
  const purchase = useStartCheckout();
  const navigate = useNavigate();
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
      <DialogContent title="Buy this course" description="One payment unlocks every lesson of the course." size="md">
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
          {purchase.error && (
            <FormMessage tone="error" className="mb-4">
              {courseErrorText(purchase.error, "The purchase did not go through.")}
            </FormMessage>
          )}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={purchase.isPending}>
              Cancel
            </Button>
            <Button
              loading={purchase.isPending}
              onClick={() =>
                purchase.mutate(
                  { product: "course", course_id: course.id },
                  { onSuccess: ({ url }) => goToCheckout(url, navigate) },
                )
              }
            >
              Continue to payment
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
