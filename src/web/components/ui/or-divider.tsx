import { cn } from "#web/lib/cn";

/** The "or" between two ways of doing one thing (Continue with Google, or an email). */
export function OrDivider({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        "my-5 flex items-center gap-3 text-xs font-medium tracking-wide text-stone-500 uppercase",
        className,
      )}
    >
      <span className="h-px flex-1 bg-stone-200" />
      or
      <span className="h-px flex-1 bg-stone-200" />
    </div>
  );
}
