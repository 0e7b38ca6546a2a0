import { ConfirmDialog } from "./alert-dialog";

/** Asks before closing a form with unsaved changes; "Discard changes" closes it and calls `onDiscard`. */
export function DiscardChangesDialog({
  open,
  onOpenChange,
  description,
  onDiscard,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  description: string;
  onDiscard: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Discard unsaved changes?"
      description={description}
      cancelLabel="Keep editing"
      confirmLabel="Discard changes"
      destructive
      onConfirm={() => {
        onOpenChange(false);
        onDiscard();
      }}
    />
  );
}
