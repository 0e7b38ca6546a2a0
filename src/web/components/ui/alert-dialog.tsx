import { type ComponentProps, lazy, Suspense, useState } from "react";

const ConfirmDialogPanel = lazy(() =>
  import("./confirm-dialog-panel").then((m) => ({ default: m.ConfirmDialogPanel })),
);

/**
 * An accessible confirmation: focus starts on the safe choice. Its code (Radix) loads the first
 * time it opens, so the pages that offer one do not carry it.
 */
export function ConfirmDialog(props: ComponentProps<typeof ConfirmDialogPanel>) {
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogPanel {...props} />
    </Suspense>
  );
}
