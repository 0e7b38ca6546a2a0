import { type ReactNode, useState } from "react";
import { cn } from "#web/lib/cn";

/** The dashed box a composer's files can be dropped on; it holds the way to choose them. */
export function DropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        onFiles([...e.dataTransfer.files]);
      }}
      className={cn(
        "flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors",
        dragging ? "border-brand-500 bg-brand-50" : "border-stone-300 bg-stone-50",
      )}
    >
      {children}
    </div>
  );
}
