import { Flame } from "lucide-react";
import { cn } from "#web/lib/cn";

export function LogoMark({ size = "md", className }: { size?: "md" | "lg"; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center justify-center bg-gradient-to-br from-brand-600 to-brand-800 text-white shadow-sm",
        size === "lg" ? "size-11 rounded-xl" : "size-8 rounded-lg",
        className,
      )}
      aria-hidden="true"
    >
      <Flame className={size === "lg" ? "size-6" : "size-[18px]"} strokeWidth={2.4} />
    </span>
  );
}

/** The wordmark: mark plus name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2", className)}>
      <LogoMark />
      <span className="text-lg font-extrabold tracking-tight text-stone-900">Hearth</span>
    </span>
  );
}
