import type { ComponentType, ReactNode } from "react";
import { cn } from "#web/lib/cn";

/** A calm, honest "nothing here yet" panel. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
  headingLevel = 2,
}: {
  /** A lucide icon, or a drawing that takes the same class and aria-hidden. */
  icon: ComponentType<{ className?: string; "aria-hidden"?: "true" }>;
  title: string;
  children?: ReactNode;
  /** A way forward (a button or a link), below the text. */
  action?: ReactNode;
  className?: string;
  headingLevel?: 1 | 2 | 3;
}) {
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1];
  return (
    <div
      className={cn(
        "rounded-3xl border border-dashed border-stone-300 bg-white/70 px-6 py-14 text-center sm:px-10",
        className,
      )}
    >
      <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <Heading className="mt-5 text-lg font-bold tracking-tight text-stone-900">{title}</Heading>
      {children && <div className="mx-auto mt-2 max-w-md text-sm leading-relaxed text-stone-600">{children}</div>}
      {action && <div className="mt-6 flex justify-center">{action}</div>}
    </div>
  );
}
