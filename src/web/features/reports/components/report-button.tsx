import { FlagIcon as Flag } from "./icons";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { type ReportDialogProps, ReportDialog } from "./report-dialog";

/** A 'Report' button with its dialog (a profile page). */
export function ReportButton({
  label = "Report",
  ...target
}: Omit<ReportDialogProps, "open" | "onOpenChange" | "onCloseAutoFocus"> & { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <Flag className="size-4" aria-hidden="true" />
        {label}
      </Button>
      <ReportDialog {...target} open={open} onOpenChange={setOpen} />
    </>
  );
}
