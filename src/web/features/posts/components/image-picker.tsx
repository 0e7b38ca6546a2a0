import { ImagePlus, RotateCw, TriangleAlert, X } from "lucide-react";
import { useId, useRef } from "react";
import { POST_LIMITS } from "#shared/posts";
import { FormMessage } from "#web/components/ui/form-message";
import { cn } from "#web/lib/cn";
import { DropZone } from "./drop-zone";
import { IMAGE_MAX_MB, IMAGE_TYPES, type PickedImage } from "./use-image-uploads";

/**
 * Picks images for a post (button or drop), shows each with its upload progress, and lets any be
 * removed or retried. The upload itself lives in useImageUploads.
 */
export function ImagePicker({
  images,
  problems,
  onAdd,
  onRemove,
  onRetry,
  describedBy,
}: {
  images: readonly PickedImage[];
  problems: readonly string[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
  describedBy?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const full = images.length >= POST_LIMITS.imagesMax;

  return (
    <div className="space-y-3">
      <DropZone onFiles={(files) => !full && onAdd(files)}>
        <input
          ref={input}
          id={`${id}-files`}
          type="file"
          multiple
          accept={IMAGE_TYPES.join(",")}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            onAdd([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => input.current?.click()}
          disabled={full}
          aria-describedby={[`${id}-rules`, describedBy].filter(Boolean).join(" ")}
          className="inline-flex cursor-pointer items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm ring-1 ring-stone-300 transition-colors ring-inset hover:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <ImagePlus className="size-4" aria-hidden="true" />
          {images.length ? "Add more images" : "Choose images"}
        </button>
        <p id={`${id}-rules`} className="text-xs text-stone-600">
          JPEG, PNG, WebP or GIF, up to {IMAGE_MAX_MB}MB each · {images.length} of {POST_LIMITS.imagesMax}
          <span className="max-sm:hidden"> · or drop them here</span>
        </p>
      </DropZone>

      {problems.length > 0 && (
        <FormMessage tone="error">
          {problems.length === 1 ? (
            problems[0]
          ) : (
            <ul className="list-disc pl-4">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </FormMessage>
      )}

      {images.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label="Chosen images">
          {images.map((image, i) => (
            <li
              key={image.key}
              className="relative aspect-square overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-200"
            >
              <img
                src={image.previewUrl}
                alt={`Image ${i + 1}: ${image.name}`}
                width={200}
                height={200}
                className={cn("size-full object-cover", image.status !== "done" && "opacity-70")}
              />
              {image.status === "uploading" && (
                <div className="absolute inset-x-2 bottom-2">
                  <div
                    role="progressbar"
                    aria-label={`Uploading ${image.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(image.progress * 100)}
                    className="h-1.5 overflow-hidden rounded-full bg-white/80 shadow"
                  >
                    <div
                      className="h-full rounded-full bg-brand-600 transition-[width]"
                      style={{ width: `${Math.max(4, image.progress * 100)}%` }}
                    />
                  </div>
                </div>
              )}
              {image.status === "error" && (
                <div className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-red-950/70 p-1 text-center text-xs font-medium text-white">
                  <TriangleAlert className="size-4" aria-hidden="true" />
                  <span className="line-clamp-2">{image.error}</span>
                  <button
                    type="button"
                    onClick={() => onRetry(image.key)}
                    className="mt-0.5 inline-flex cursor-pointer items-center gap-1 rounded-md bg-white px-2 py-0.5 text-stone-900"
                  >
                    <RotateCw className="size-3" aria-hidden="true" />
                    Retry
                    <span className="sr-only"> {image.name}</span>
                  </button>
                </div>
              )}
              <button
                type="button"
                onClick={() => onRemove(image.key)}
                aria-label={`Remove image ${i + 1}`}
                className="absolute top-1 right-1 flex size-7 cursor-pointer items-center justify-center rounded-full bg-stone-950/70 text-white transition-colors hover:bg-stone-950"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
