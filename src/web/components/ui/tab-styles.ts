import { cn } from "#web/lib/cn";

/** One look for every tab: Radix tabs (tabs.tsx) and the community's tab bar (tab-bar.tsx). */
export const tabTriggerClasses = (className?: string) =>
  cn(
    "-mb-px inline-flex shrink-0 cursor-pointer items-center gap-2 border-b-2 border-transparent px-2.5 py-3 text-sm font-semibold text-stone-600 transition-colors sm:px-3 max-sm:[&_svg]:hidden",
    "hover:text-stone-900 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800",
    "focus-visible:rounded-md focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700",
    className,
  );
