import { LoaderCircle } from "lucide-react";
import { cn } from "#web/lib/cn";

export function Spinner({ label = "Loading", className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center gap-2 text-stone-600", className)}>
      <LoaderCircle className="size-5 animate-spin text-brand-700" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
