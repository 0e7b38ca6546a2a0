import { cn } from "#web/lib/cn";

/** A magnifying glass, drawn inline: a lucide icon here would regroup the pages' icon chunks (decision 0009). */
export function SearchIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      className={cn("shrink-0", className)}
      aria-hidden="true"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" strokeLinecap="round" />
    </svg>
  );
}
