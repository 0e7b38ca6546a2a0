import { lazy, Suspense, useState } from "react";
import type { ReportTarget } from "#shared/reports";

// The form (and its texts) loads when a dialog first opens.
const ReportDialogPanel = lazy(() => import("./report-dialog-panel").then((m) => ({ default: m.ReportDialogPanel })));

export type ReportDialogProps = {
  target: ReportTarget;
  /** The post, comment or message id; for a profile, the person's user id. */
  target_id: string;
  /** Needed for a message or a profile: the community the reporter shares with its author. */
  community_id?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (a menu's trigger); Radix's default otherwise. */
  onCloseAutoFocus?: (event: Event) => void;
};

/**
 * The report dialog. Render it outside a menu (a menu's content unmounts when an item is chosen)
 * and open it from `ReportMenuItem`'s onSelect. Offer it only to someone signed in, never on their own content.
 */
export function ReportDialog(props: ReportDialogProps) {
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialogPanel {...props} />
    </Suspense>
  );
}
