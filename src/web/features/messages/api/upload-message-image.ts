import { sendWithProgress, type UploadedFile } from "#web/lib/upload-file";

/**
 * Uploads an image for a message through the uploads pipeline: an image of one's own (no
 * community), re-encoded by the server; its key goes with the message.
 */
export function uploadMessageImage(
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
) {
  const form = new FormData();
  form.append("file", file);
  return sendWithProgress<UploadedFile>("POST", "/api/upload", form, {
    headers: { accept: "application/json" },
    onProgress,
    signal,
  });
}
