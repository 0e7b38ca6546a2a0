import { FlagIcon as Flag } from "./icons";
import { type FormEvent, useId, useState } from "react";
import {
  REPORT_LIMITS,
  REPORT_MESSAGES,
  REPORT_REASON_HINTS,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  REPORT_TARGET_LABELS,
  type ReportReason,
} from "#shared/reports";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { useCreateReport } from "../api/create-report";
import type { ReportDialogProps } from "./report-dialog";

/** The report form in its dialog: a reason (Other needs a few words), then Report. */
export function ReportDialogPanel({ open, onOpenChange, onCloseAutoFocus, ...target }: ReportDialogProps) {
  const what = REPORT_TARGET_LABELS[target.target];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Report this ${what}`}
        description={`Only the community's moderators see reports. The ${what === "profile" ? "person" : "author"} is not told who reported it.`}
        size="md"
        onCloseAutoFocus={onCloseAutoFocus}
      >
        {/* Mounted per opening, so each report starts blank. */}
        {open && <ReportForm {...target} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ReportForm({
  target,
  target_id,
  community_id,
  onDone,
}: Pick<ReportDialogProps, "target" | "target_id" | "community_id"> & { onDone: () => void }) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState("");
  const [tried, setTried] = useState(false);
  const report = useCreateReport();
  const max = REPORT_LIMITS.otherTextMax;
  const textError =
    reason === "other" && text.trim() === ""
      ? REPORT_MESSAGES.otherTextRequired
      : text.length > max
        ? REPORT_MESSAGES.otherTextTooLong
        : null;
  const reasonError = reason === null ? "Please choose a reason" : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (reason === null || textError || report.isPending) return;
    report.mutate(
      { target, target_id, ...(community_id ? { community_id } : {}), reason, text: text.trim() },
      {
        onSuccess: (result) => {
          toast.success(result.already ? REPORT_MESSAGES.alreadyReported : REPORT_MESSAGES.submitted);
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8" noValidate>
      <fieldset aria-describedby={tried && reasonError ? `${id}-reason-error` : undefined}>
        <legend className="mb-2 text-sm font-semibold text-stone-900">Why are you reporting it?</legend>
        <div className="space-y-2">
          {REPORT_REASONS.map((value) => {
            const checked = reason === value;
            return (
              <label
                key={value}
                className={cn(
                  "flex cursor-pointer items-start gap-3 rounded-xl border px-4 py-3 transition-colors",
                  "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700",
                  checked
                    ? "border-brand-600 bg-brand-50/60 ring-1 ring-brand-600"
                    : "border-stone-200 hover:border-stone-300",
                )}
              >
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={value}
                  checked={checked}
                  onChange={() => setReason(value)}
                  className="mt-0.5 size-4 shrink-0 accent-brand-700"
                />
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-stone-900">{REPORT_REASON_LABELS[value]}</span>
                  <span className="block text-sm text-stone-600">{REPORT_REASON_HINTS[value]}</span>
                </span>
              </label>
            );
          })}
        </div>
        {tried && reasonError && (
          <p id={`${id}-reason-error`} className="mt-1.5 text-sm text-red-700">
            {reasonError}
          </p>
        )}
      </fieldset>

      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3">
          <Label htmlFor={`${id}-text`}>{reason === "other" ? "What is wrong?" : "Anything to add? (optional)"}</Label>
          <span id={`${id}-count`} className="text-xs text-stone-600 tabular-nums">
            {text.length}/{max}
          </span>
        </div>
        <textarea
          id={`${id}-text`}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, max))}
          rows={3}
          maxLength={max}
          required={reason === "other"}
          aria-invalid={tried && textError ? true : undefined}
          aria-describedby={[`${id}-count`, tried && textError ? `${id}-text-error` : null].filter(Boolean).join(" ")}
          className={cn(inputClasses, "min-h-20 resize-y py-2")}
        />
        {tried && textError && (
          <p id={`${id}-text-error`} className="mt-1.5 text-sm text-red-700">
            {textError}
          </p>
        )}
      </div>

      {report.isError && (
        <FormMessage tone="error">
          {errorMessage(report.error, "The report could not be sent. Please try again.", [
            "VALIDATION",
            "FORBIDDEN",
            "NOT_FOUND",
          ])}
        </FormMessage>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={report.isPending}>
          <Flag className="size-4" aria-hidden="true" />
          Report
        </Button>
      </div>
    </form>
  );
}
