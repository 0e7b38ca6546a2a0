import { CircleCheck, Film, RotateCw, Upload, X } from "lucide-react";
import { useId } from "react";
import { FILE_KINDS } from "#shared/uploads";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { cn } from "#web/lib/cn";
import type { FileUploadState } from "#web/lib/upload-file";
import { DropZone } from "./drop-zone";
import { PostVideo } from "./post-video";

/** What the picker offers; the server decides from the bytes in the end. */
export const VIDEO_ACCEPT = FILE_KINDS.video.mimes.join(",");
const RULES = `MP4, MOV, AVI or WebM, up to ${FILE_KINDS.video.maxMb}MB`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / 1024 / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/**
 * A video file for a post: choose or drop one, watch its upload (percentage, Cancel), then see it
 * playing as it will in the feed, with Remove. The upload itself is useFileUpload's.
 */
export function VideoUpload({
  state,
  onFile,
  onCancel,
  onRetry,
}: {
  state: FileUploadState;
  onFile: (file: File) => void;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const id = useId();

  if (state.status === "uploading") {
    const percent = Math.round(state.progress * 100);
    return (
      <div className="rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200 sm:p-4">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
            <Film className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold text-stone-900">{state.file.name}</p>
            <p className="text-xs text-stone-600 tabular-nums">
              Uploading… {formatBytes(Math.round(state.file.size * state.progress))} of {formatBytes(state.file.size)}
            </p>
          </div>
          <Button variant="secondary" size="sm" onClick={onCancel}>
            Cancel
            <span className="sr-only"> the upload of {state.file.name}</span>
          </Button>
        </div>
        <div className="mt-3 flex items-center gap-3">
          <div
            role="progressbar"
            aria-label={`Uploading ${state.file.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 flex-1 overflow-hidden rounded-full bg-stone-200"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width] duration-200"
              style={{ width: `${Math.max(2, percent)}%` }}
            />
          </div>
          <span className="w-10 text-right text-sm font-semibold text-stone-800 tabular-nums" aria-hidden="true">
            {percent}%
          </span>
        </div>
      </div>
    );
  }

  if (state.status === "done") {
    return (
      <div className="space-y-2">
        <PostVideo url={state.result.url} title={state.file.name} />
        <div className="flex items-center gap-2">
          <CircleCheck className="size-4 shrink-0 text-emerald-700" aria-hidden="true" />
          <p className="min-w-0 flex-1 truncate text-sm text-stone-700">
            <span className="font-semibold text-stone-900">{state.file.name}</span> · {formatBytes(state.result.size)}{" "}
            uploaded
          </p>
          <Button variant="ghost" size="sm" onClick={onCancel}>
            <X className="size-4" aria-hidden="true" />
            Remove video
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <DropZone onFiles={([file]) => file && onFile(file)}>
        <label
          className={cn(
            "inline-flex cursor-pointer items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm ring-1 ring-stone-300 transition-colors ring-inset hover:bg-stone-50",
            "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700",
          )}
        >
          <input
            type="file"
            accept={VIDEO_ACCEPT}
            className="sr-only"
            aria-describedby={`${id}-rules`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) onFile(file);
            }}
          />
          <Upload className="size-4" aria-hidden="true" />
          Upload video
        </label>
        <p id={`${id}-rules`} className="text-xs text-stone-600">
          {RULES}
          <span className="max-sm:hidden"> · or drop it here</span>
        </p>
      </DropZone>
      {state.status === "error" && (
        <FormMessage tone="error">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>{state.error}</span>
            {state.retry && (
              <Button variant="secondary" size="sm" onClick={onRetry}>
                <RotateCw className="size-3.5" aria-hidden="true" />
                Try again
              </Button>
            )}
          </div>
        </FormMessage>
      )}
    </div>
  );
}
