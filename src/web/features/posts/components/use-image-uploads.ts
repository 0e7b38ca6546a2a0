import { useCallback, useEffect, useRef, useState } from "react";
import { POST_LIMITS } from "#shared/posts";
import { errorMessage } from "#web/lib/api";
import { type UploadedImage, uploadPostImage } from "../api/upload-post-image";

/** Image rules for posts (SPEC §5 file uploads): JPEG, PNG, WebP, GIF up to 10 MB. */
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const IMAGE_EXTENSIONS = ".jpg, .jpeg, .png, .webp, .gif";
export const IMAGE_MAX_MB = 10;
export const imageMessages = {
  tooLarge: `File size exceeds ${IMAGE_MAX_MB}MB limit`,
  wrongType: `Invalid file type. Accepted types: ${IMAGE_EXTENSIONS}`,
  tooMany: `You can add up to ${POST_LIMITS.imagesMax} images to a post.`,
  failed: "Upload failed",
};

/** Why a picked file cannot be uploaded, or null when it can. */
export function imageFileProblem(file: File): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return imageMessages.wrongType;
  if (file.size > IMAGE_MAX_MB * 1024 * 1024) return imageMessages.tooLarge;
  return null;
}

export type PickedImage = {
  key: string;
  name: string;
  previewUrl: string;
  progress: number;
  status: "uploading" | "done" | "error";
  result?: UploadedImage;
  error?: string;
};

type Entry = { file: File; controller: AbortController };
type Refs = { entries: Map<string, Entry>; previews: Map<string, string> };

/** Cancels an image's upload and frees its preview. */
function release({ entries, previews }: Refs, key: string) {
  entries.get(key)?.controller.abort();
  entries.delete(key);
  const url = previews.get(key);
  if (url) URL.revokeObjectURL(url);
  previews.delete(key);
}

let nextKey = 0;

/**
 * Images picked for a post, each uploaded at once with its progress. Removing one cancels its
 * upload; the previews' object URLs are released when removed, cleared or unmounted.
 */
export function useImageUploads(communityId: string) {
  const [images, setImages] = useState<PickedImage[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const refs = useRef<Refs>({ entries: new Map(), previews: new Map() });

  const patch = useCallback((key: string, change: Partial<PickedImage>) => {
    setImages((list) => list.map((image) => (image.key === key ? { ...image, ...change } : image)));
  }, []);

  const start = useCallback(
    (key: string, file: File) => {
      const controller = new AbortController();
      refs.current.entries.set(key, { file, controller });
      uploadPostImage(communityId, file, {
        signal: controller.signal,
        onProgress: (fraction) => patch(key, { progress: Math.min(0.99, fraction) }),
      }).then(
        (result) => patch(key, { status: "done", progress: 1, result }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          patch(key, {
            status: "error",
            error: errorMessage(error, imageMessages.failed, ["VALIDATION", "PAYLOAD_TOO_LARGE", "FORBIDDEN"]),
          });
        },
      );
    },
    [communityId, patch],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      const found: string[] = [];
      const room = POST_LIMITS.imagesMax - images.length;
      const accepted: File[] = [];
      for (const file of files) {
        const problem = imageFileProblem(file);
        if (problem) found.push(`${file.name}: ${problem}`);
        else accepted.push(file);
      }
      if (accepted.length > room) found.push(imageMessages.tooMany);
      const added = accepted.slice(0, Math.max(0, room)).map((file) => {
        const key = `image-${(nextKey += 1)}`;
        const previewUrl = URL.createObjectURL(file);
        refs.current.previews.set(key, previewUrl);
        start(key, file);
        return { key, name: file.name, previewUrl, progress: 0, status: "uploading" as const };
      });
      setProblems(found);
      if (added.length) setImages((list) => [...list, ...added]);
    },
    [images.length, start],
  );

  const remove = useCallback((key: string) => {
    release(refs.current, key);
    setImages((list) => list.filter((image) => image.key !== key));
    setProblems([]);
  }, []);

  const retry = useCallback(
    (key: string) => {
      const entry = refs.current.entries.get(key);
      if (!entry) return;
      patch(key, { status: "uploading", progress: 0, error: undefined });
      start(key, entry.file);
    },
    [patch, start],
  );

  const clear = useCallback(() => {
    for (const key of [...refs.current.previews.keys()]) release(refs.current, key);
    setImages([]);
    setProblems([]);
  }, []);

  useEffect(() => {
    const current = refs.current;
    return () => {
      for (const key of [...current.previews.keys()]) release(current, key);
    };
  }, []);

  return { images, problems, add, remove, retry, clear };
}
