import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("flex gap-1 overflow-x-auto border-b border-stone-200 px-4 sm:px-8", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "-mb-px inline-flex shrink-0 cursor-pointer items-center gap-2 border-b-2 border-transparent px-2.5 py-3 text-sm font-semibold text-stone-600 transition-colors sm:px-3 max-sm:[&_svg]:hidden",
        "hover:text-stone-900 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800",
        "focus-visible:rounded-md focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700",
        className,
      )}
      {...props}
    />
  );
}

/** Tab panels stay mounted so switching tabs keeps what was typed. */
export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      forceMount
      className={cn("focus-visible:outline-none data-[state=inactive]:hidden", className)}
      {...props}
    />
  );
}
