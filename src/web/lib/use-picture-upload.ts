import { type ChangeEvent, useEffect, useState } from "react";
import { useFlashMessage } from "./use-flash-message";

type Callbacks = { onSuccess: () => void; onError: (error: unknown) => void; onSettled: () => void };

/**
 * One picture chosen in a file input, checked in the browser, then shown as a preview while it
 * uploads: `check` says why a file is refused (null when it will do), `failed` why an upload failed.
 */
export function usePictureUpload({
  upload,
  check,
  saved,
  failed,
}: {
  upload: { mutate: (file: File, callbacks: Callbacks) => void };
  check: (file: File) => string | null;
  /** Said once the picture is saved. */
  saved: string;
  failed: (error: unknown) => string;
}) {
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const flash = useFlashMessage();
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    flash.clear();
    const refused = check(file);
    if (refused) return setProblem(refused);
    setProblem(null);
    setPreview(URL.createObjectURL(file));
    upload.mutate(file, {
      onSuccess: () => flash.show(saved),
      onError: (error) => setProblem(failed(error)),
      onSettled: () => setPreview(null),
    });
  };

  return { preview, problem, setProblem, flash, onFile };
}
