import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "#web/lib/cn";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClasses =
  "fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-[2px] data-[state=open]:animate-fade-in";

export const panelClasses = cn(
  "fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2",
  "max-h-[calc(100dvh-2rem)] overflow-y-auto rounded-2xl bg-white shadow-2xl ring-1 ring-stone-900/5",
  "focus:outline-none data-[state=open]:animate-dialog-in",
);

type DialogContentProps = ComponentProps<typeof DialogPrimitive.Content> & {
  title: ReactNode;
  description?: ReactNode;
  /** Hides the heading visually (it stays the dialog's accessible name). */
  hideHeader?: boolean;
  size?: "sm" | "md" | "lg";
  header?: ReactNode;
};

const sizes = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-3xl" };

export function DialogContent({
  title,
  description,
  hideHeader,
  size = "sm",
  header,
  className,
  children,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content
        className={cn(panelClasses, sizes[size], className)}
        {...(description ? {} : { "aria-describedby": undefined })}
        {...props}
      >
        {header}
        <div
          className={cn(
            hideHeader ? "sr-only" : header ? "px-6 pt-4 pr-12 sm:px-8" : "px-6 pt-6 pr-12 sm:px-8 sm:pt-8",
          )}
        >
          <DialogPrimitive.Title className="text-xl font-bold tracking-tight text-stone-900">
            {title}
          </DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className="mt-1.5 text-sm text-stone-600">
              {description}
            </DialogPrimitive.Description>
          )}
        </div>
        {children}
        <DialogPrimitive.Close
          className="absolute top-4 right-4 flex size-9 cursor-pointer items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-800"
          aria-label="Close"
        >
          <X className="size-5" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
