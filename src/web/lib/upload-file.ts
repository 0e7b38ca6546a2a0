import { useCallback, useEffect, useRef, useState } from "react";
import { type FileKind, FILE_KINDS, MB, MIME_BY_EXTENSION, type UploadType, kindOfMime } from "#shared/uploads";
import { ApiError, NETWORK_ERROR_MESSAGE, api, unwrap } from "./api";
import type { paths } from "./api-types";

/** What an upload answers: the file's URL (and, for images, its variants). */
export type UploadedFile = paths["/api/upload"]["post"]["responses"][200]["content"]["application/json"];

export type UploadFileOptions = {
  communityId: string;
  uploadType: UploadType;
  /** From 0 to 1 as the bytes go out; 1 once the server has the file. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

/** The file's declared type, or (when the browser gives none, as for some .avi files) the one its extension names. */
export function fileTypeOf(file: File): string {
  // Lowercase and without parameters, as the server signs it (a direct PUT must send it the same).
  const declared = file.type.toLowerCase().split(";")[0].trim();
  if (declared) return declared;
  const ext = /\.[^.]+$/.exec(file.name)?.[0]?.toLowerCase() ?? "";
  return MIME_BY_EXTENSION[ext] ?? "";
}

/** The kind of a picked file (image, video, document), or null when Hearth does not take it. */
export const fileKindOf = (file: File): FileKind | null => kindOfMime(fileTypeOf(file));

/** Whether a picked file is over its kind's limit. */
export const fileTooLarge = (file: File, kind: FileKind) => file.size > FILE_KINDS[kind].maxMb * MB;

const abortError = () => new DOMException("Upload cancelled", "AbortError");

/** True for the rejection of an upload that was cancelled. */
export const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * One request with upload progress. XMLHttpRequest rather than fetch: only it tells how much of the
 * body has been sent. JSON answers come back parsed; failures as ApiError with the server's code
 * and message when it sent one.
 */
export function sendWithProgress<T>(
  method: "POST" | "PUT",
  url: string,
  body: XMLHttpRequestBodyInit,
  {
    headers = {},
    credentials = true,
    onProgress,
    signal,
  }: {
    headers?: Record<string, string>;
    credentials?: boolean;
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal;
  } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.responseType = "text";
    xhr.withCredentials = credentials;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.onload = () => {
      done();
      let json: unknown = null;
      try {
        if (xhr.responseText) json = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a storage service's XML error, a proxy's page): the status says enough.
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(json as T);
      const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      reject(
        new ApiError(
          xhr.status,
          typeof error?.code === "string" ? error.code : xhr.status >= 500 ? "INTERNAL" : "BAD_REQUEST",
          typeof error?.message === "string" && error.message ? error.message : "Something went wrong",
        ),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, "NETWORK", NETWORK_ERROR_MESSAGE));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(body);
  });
}

/**
 * Uploads a post or course file of a community (SPEC §7): reserves a key (presigned-url), then
 * either PUTs the bytes straight to storage and confirms them (complete), or POSTs them here as
 * multipart with the key, its fields before the file. Progress and cancelling work either way.
 */
export async function uploadFile(
  file: File,
  { communityId, uploadType, onProgress, signal }: UploadFileOptions,
): Promise<UploadedFile> {
  const fileType = fileTypeOf(file);
  let presigned;
  try {
    presigned = await unwrap(
      api.POST("/api/upload/presigned-url", {
        body: { fileName: file.name, fileType, communityId, uploadType, fileSize: file.size },
        signal,
      }),
    );
  } catch (error) {
    if (signal?.aborted) throw abortError();
    throw error;
  }
  if (signal?.aborted) throw abortError();
  // The bytes are most of the work; the last step (the server's answer) finishes the bar.
  const progress = (fraction: number) => onProgress?.(Math.min(0.99, fraction));
  onProgress?.(0);

  let result: UploadedFile;
  if (presigned.isDirectUpload) {
    await sendWithProgress<unknown>("PUT", presigned.uploadUrl, file, {
      headers: { "content-type": fileType },
      credentials: false,
      onProgress: progress,
      signal,
    });
    try {
      result = await unwrap(api.POST("/api/upload/complete", { body: { key: presigned.key }, signal }));
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw error;
    }
  } else {
    const form = new FormData();
    form.append("communityId", communityId);
    form.append("uploadType", uploadType);
    form.append("key", presigned.key);
    form.append("file", file);
    result = await sendWithProgress<UploadedFile>("POST", presigned.uploadUrl, form, {
      headers: { accept: "application/json" },
      onProgress: progress,
      signal,
    });
  }
  onProgress?.(1);
  return result;
}

/**
 * The message for a failed upload: the server's own words when it gave a reason (a 4xx with a
 * message, or a network failure), else the fallback.
 */
export function uploadErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === "NETWORK") return error.message;
    if (error.status >= 400 && error.status < 500 && error.message !== "Something went wrong") return error.message;
  }
  return fallback;
}

export type FileUploadState =
  | { status: "idle" }
  | { status: "uploading"; file: File; progress: number }
  | { status: "done"; file: File; result: UploadedFile }
  /** `retry`: false when the browser refused the file (trying it again would not help). */
  | { status: "error"; file: File; error: string; retry: boolean };

/**
 * One file uploaded through uploadFile, as React state: start (a new file, or the same again),
 * cancel, reset. `check` refuses a file in the browser first (its message shown as the error).
 * An upload still running when the component goes away is cancelled.
 */
export function useFileUpload({
  communityId,
  uploadType,
  failedMessage,
  check,
}: {
  communityId: string;
  uploadType: UploadType;
  failedMessage: string;
  check?: (file: File) => string | null;
}) {
  const [state, setState] = useState<FileUploadState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
  }, []);

  const start = useCallback(
    (file: File) => {
      stop();
      const problem = check?.(file) ?? null;
      if (problem) {
        setState({ status: "error", file, error: problem, retry: false });
        return;
      }
      const current = new AbortController();
      controller.current = current;
      setState({ status: "uploading", file, progress: 0 });
      uploadFile(file, {
        communityId,
        uploadType,
        signal: current.signal,
        onProgress: (progress) => {
          if (controller.current === current) setState({ status: "uploading", file, progress });
        },
      }).then(
        (result) => {
          if (controller.current !== current) return;
          controller.current = null;
          setState({ status: "done", file, result });
        },
        (error: unknown) => {
          if (controller.current !== current || isAbort(error)) return;
          controller.current = null;
          setState({ status: "error", file, error: uploadErrorMessage(error, failedMessage), retry: true });
        },
      );
    },
    [check, communityId, failedMessage, stop, uploadType],
  );

  /** Stops a running upload and forgets the file. */
  const reset = useCallback(() => {
    stop();
    setState({ status: "idle" });
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { state, start, cancel: reset, reset };
}
