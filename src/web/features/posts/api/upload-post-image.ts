import { ApiError, NETWORK_ERROR_MESSAGE } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type UploadedImage =
  paths["/api/communities/{communityId}/media"]["post"]["responses"][200]["content"]["application/json"];

/**
 * Uploads one image for a post (multipart `file`) and reports progress from 0 to 1. XMLHttpRequest
 * rather than fetch: only it tells how much of the body has been sent.
 */
export function uploadPostImage(
  communityId: string,
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadedImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/communities/${encodeURIComponent(communityId)}/media`);
    xhr.responseType = "json";
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as unknown;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as UploadedImage);
        return;
      }
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      reject(
        new ApiError(
          xhr.status,
          typeof error?.code === "string" ? error.code : xhr.status >= 500 ? "INTERNAL" : "BAD_REQUEST",
          typeof error?.message === "string" && error.message ? error.message : "Something went wrong",
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
