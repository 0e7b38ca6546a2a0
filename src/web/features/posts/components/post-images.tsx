import { lazy, Suspense, useState } from "react";
import { POST_LIMITS } from "#shared/posts";
import { cn } from "#web/lib/cn";

export type PostImage = { url: string; medium?: string; thumbnail?: string };

// The full-screen viewer (a Radix dialog) loads when someone first opens an image.
const ImageViewer = lazy(() => import("./image-viewer").then((m) => ({ default: m.ImageViewer })));

/** Cell shapes per count shown (1–4): one wide, two squares, one tall and two, a 2×2 grid. */
const layouts: Record<number, { grid: string; cells: string[] }> = {
  1: { grid: "grid-cols-1", cells: ["aspect-[16/10]"] },
  2: { grid: "grid-cols-2", cells: ["aspect-square", "aspect-square"] },
  3: { grid: "grid-cols-2 grid-rows-2 aspect-[3/2]", cells: ["row-span-2", "", ""] },
  4: { grid: "grid-cols-2 grid-rows-2 aspect-[3/2]", cells: ["", "", "", ""] },
};

/**
 * A post's images: at most four in the grid, the fourth saying "+N" when there are more. Any image
 * opens the viewer with all of them (arrow keys move, Escape closes).
 */
export function PostImages({ images, authorName }: { images: readonly PostImage[]; authorName: string }) {
  const [open, setOpen] = useState<number | null>(null);
  const [opened, setOpened] = useState(false);
  if (open !== null && !opened) setOpened(true);
  if (images.length === 0) return null;
  const shown = images.slice(0, POST_LIMITS.gridMax);
  const more = images.length - shown.length;
  const layout = layouts[shown.length];
  return (
    <>
      <div className={cn("mt-4 grid gap-1 overflow-hidden rounded-xl bg-stone-100", layout.grid)}>
        {shown.map((image, i) => {
          const last = i === shown.length - 1 && more > 0;
          return (
            <button
              key={image.url}
              type="button"
              onClick={() => setOpen(i)}
              aria-label={
                last ? `View all ${images.length} images, ${more} more` : `View image ${i + 1} of ${images.length}`
              }
              className={cn(
                "group relative min-h-0 cursor-zoom-in overflow-hidden bg-stone-200 focus-visible:outline-offset-[-3px]",
                layout.cells[i],
              )}
            >
              <img
                src={image.medium ?? image.url}
                alt=""
                width={800}
                height={800}
                loading="lazy"
                decoding="async"
                className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
              />
              {last && (
                <span
                  className="absolute inset-0 flex items-center justify-center bg-stone-950/55 text-3xl font-bold text-white"
                  aria-hidden="true"
                >
                  +{more}
                </span>
              )}
            </button>
          );
        })}
      </div>
      {opened && (
        <Suspense fallback={null}>
          <ImageViewer
            images={images}
            index={open}
            onIndexChange={setOpen}
            title={`Images from ${authorName}'s post`}
          />
        </Suspense>
      )}
    </>
  );
}
