import { Camera, Trash2 } from "lucide-react";
import { useRef } from "react";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { ApiError } from "#web/lib/api";
import { usePictureUpload } from "#web/lib/use-picture-upload";
import { useRemoveAvatar, useUploadAvatar } from "../api/avatar";

/** SPEC §8's avatar messages, by what went wrong. */
function avatarError(error: unknown): string {
  if (!(error instanceof ApiError)) return MSG.avatarUploadFailed;
  if (error.code === "PAYLOAD_TOO_LARGE") return MSG.avatarFileTooLarge;
  if (error.code === "UNAUTHORIZED") return MSG.sessionExpired;
  if (error.code === "VALIDATION" || error.code === "NETWORK" || error.code === "RATE_LIMITED") return error.message;
  return MSG.avatarUploadFailed;
}

export function AvatarEditor({ avatarUrl, name }: { avatarUrl: string | null; name: string }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const { preview, problem, setProblem, flash, onFile } = usePictureUpload({
    upload,
    check: (file) =>
      !file.type.startsWith("image/")
        ? MSG.avatarNotImage
        : file.size > LIMITS.avatarMaxBytes
          ? MSG.avatarTooLarge
          : null,
    saved: "Your new photo is saved.",
    failed: avatarError,
  });

  const onRemove = () => {
    setProblem(null);
    flash.clear();
    remove.mutate(undefined, {
      onSuccess: () => flash.show("Your photo was removed."),
      onError: (error) =>
        setProblem(
          error instanceof ApiError && error.code !== "INTERNAL"
            ? error.message
            : "Failed to remove photo. Please try again.",
        ),
    });
  };

  const busy = upload.isPending || remove.isPending;

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="relative">
        <Avatar src={preview ?? avatarUrl} name={name} size="lg" className="ring-4 ring-brand-50" />
        {upload.isPending && (
          <span className="absolute inset-0 flex items-center justify-center rounded-full bg-white/60">
            <span className="size-6 animate-spin rounded-full border-2 border-brand-700 border-t-transparent" />
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => input.current?.click()} loading={upload.isPending}>
            {!upload.isPending && <Camera className="size-4" aria-hidden="true" />}
            {avatarUrl ? "Change photo" : "Upload photo"}
          </Button>
          {avatarUrl && (
            <Button variant="ghost" size="sm" onClick={onRemove} disabled={busy} loading={remove.isPending}>
              {!remove.isPending && <Trash2 className="size-4" aria-hidden="true" />}
              Remove
            </Button>
          )}
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="hidden"
            onChange={onFile}
            aria-label="Choose a profile photo"
          />
        </div>
        <p className="text-sm text-stone-600">JPEG, PNG, WebP or GIF, under 5MB. Square pictures look best.</p>
        {problem && <FormMessage tone="error">{problem}</FormMessage>}
        {flash.message && <FormMessage tone="success">{flash.message}</FormMessage>}
      </div>
    </div>
  );
}
