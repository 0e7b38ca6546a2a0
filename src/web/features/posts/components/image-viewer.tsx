import * as DialogPrimitive from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight, X } from "lucide-react";
import type { KeyboardEvent } from "react";
import { cn } from "#web/lib/cn";
import type { PostImage } from "./post-images";

/** A post's images full screen: arrow keys move, Escape closes. */
export function ImageViewer({
  images,
  index,
  onIndexChange,
  title,
}: {
  images: readonly PostImage[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
  title: string;
}) {
  const count = images.length;
  const current = index === null ? null : images[index];
  const go = (step: number) => index !== null && onIndexChange((index + step + count) % count);
  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2) return;
    if (event.key === "ArrowRight") {
      event.preventDefault();
      go(1);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      go(-1);
    }
  };
  const navButton =
    "flex size-11 cursor-pointer items-center justify-center rounded-full bg-white/10 text-white transition-colors hover:bg-white/20 focus-visible:outline-white";
  return (
    <DialogPrimitive.Root open={index !== null} onOpenChange={(o) => !o && onIndexChange(null)}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-stone-950/90 data-[state=open]:animate-fade-in" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          className="fixed inset-0 z-50 flex flex-col focus:outline-none data-[state=open]:animate-fade-in"
        >
          <div className="flex items-center justify-between gap-4 px-4 py-3 text-white sm:px-6">
            <DialogPrimitive.Title className="truncate text-sm font-semibold">{title}</DialogPrimitive.Title>
            <div className="flex items-center gap-3">
              {count > 1 && index !== null && (
                <p className="text-sm whitespace-nowrap text-stone-300 tabular-nums" aria-live="polite">
                  {index + 1} of {count}
                </p>
              )}
              <DialogPrimitive.Close className={navButton} aria-label="Close">
                <X className="size-5" aria-hidden="true" />
              </DialogPrimitive.Close>
            </div>
          </div>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-4 sm:px-16">
            {current && (
              <img
                key={current.url}
                src={current.url}
                alt={`Image ${index! + 1} of ${count}`}
                className="max-h-full max-w-full rounded-lg object-contain shadow-2xl"
              />
            )}
            {count > 1 && (
              <>
                <button
                  type="button"
                  onClick={() => go(-1)}
                  aria-label="Previous image"
                  className={cn(navButton, "absolute top-1/2 left-2 -translate-y-1/2 sm:left-4")}
                >
                  <ChevronLeft className="size-6" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  onClick={() => go(1)}
                  aria-label="Next image"
                  className={cn(navButton, "absolute top-1/2 right-2 -translate-y-1/2 sm:right-4")}
                >
                  <ChevronRight className="size-6" aria-hidden="true" />
                </button>
              </>
            )}
          </div>
          {count > 1 && (
            <div className="flex justify-center gap-2 overflow-x-auto px-4 pb-4">
              {images.map((image, i) => (
                <button
                  key={image.url}
                  type="button"
                  onClick={() => onIndexChange(i)}
                  aria-label={`Show image ${i + 1}`}
                  aria-current={i === index || undefined}
                  className={cn(
                    "size-14 shrink-0 cursor-pointer overflow-hidden rounded-md ring-2 transition-opacity focus-visible:outline-white",
                    i === index ? "opacity-100 ring-white" : "opacity-60 ring-transparent hover:opacity-90",
                  )}
                >
                  <img
                    src={image.thumbnail ?? image.medium ?? image.url}
                    alt=""
                    width={200}
                    height={200}
                    loading="lazy"
                    className="size-full object-cover"
                  />
                </button>
              ))}
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
