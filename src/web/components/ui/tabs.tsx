import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";
import { cn } from "#web/lib/cn";
import { tabTriggerClasses } from "./tab-styles";

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
  return <TabsPrimitive.Trigger className={tabTriggerClasses(className)} {...props} />;
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
