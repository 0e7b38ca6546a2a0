import { Ban, ImagePlus, SendHorizontal, X } from "./icons";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import { FILE_KINDS, MB } from "#shared/uploads";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { ApiError } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { fileKindOf, isAbort, uploadErrorMessage, type UploadedFile } from "#web/lib/upload-file";
import { type SendInput, useSendMessage } from "../api/send-message";
import { uploadMessageImage } from "../api/upload-message-image";

const IMAGE_ACCEPT = FILE_KINDS.image.mimes.join(",");
const IMAGE_RULES = {
  wrongType: `Invalid file type. Accepted types: ${FILE_KINDS.image.extensions.join(", ")}`,
  tooLarge: `File size exceeds ${FILE_KINDS.image.maxMb}MB limit`,
  failed: "Upload failed",
};
const SEND_FAILED = "Your message wasn't sent. Please try again.";

type Picked =
  | { status: "uploading"; previewUrl: string; progress: number }
  | { status: "done"; previewUrl: string; result: UploadedFile }
  | { status: "error"; previewUrl: string; error: string };

/** The message a person sees for a refused send: the server's own words for a 4xx, else a general one. */
function sendError(error: unknown): string {
  if (error instanceof ApiError && (error.status === 0 || (error.status >= 400 && error.status < 500)))
    return error.message;
  return SEND_FAILED;
}

/**
 * Writes a message: text (Enter sends, Shift+Enter starts a new line) and one image through the
 * uploads pipeline. When the person can't be messaged the box is disabled and says so, no reason
 * given.
 */
export function MessageComposer({
  conversationId,
  canSend,
  blocked,
  onUnblock,
  onSent,
}: {
  conversationId: string;
  canSend: boolean;
  /** I blocked them: an Unblock button beside the note. */
  blocked: boolean;
  onUnblock: () => void;
  onSent: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState("");
  const [picked, setPicked] = useState<Picked | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const upload = useRef<AbortController | null>(null);
  const send = useSendMessage(conversationId);

  // A new conversation starts with an empty box.
  const [shownFor, setShownFor] = useState(conversationId);
  if (shownFor !== conversationId) {
    setShownFor(conversationId);
    setBody("");
    setPicked(null);
    setProblem(null);
  }

  useEffect(
    () => () => {
      upload.current?.abort();
    },
    [],
  );
  useEffect(() => {
    const url = picked?.previewUrl;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [picked?.previewUrl]);

  const pickImage = (file: File) => {
    setProblem(null);
    if (fileKindOf(file) !== "image") return setProblem(IMAGE_RULES.wrongType);
    if (file.size > FILE_KINDS.image.maxMb * MB) return setProblem(IMAGE_RULES.tooLarge);
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    const previewUrl = URL.createObjectURL(file);
    setPicked({ status: "uploading", previewUrl, progress: 0 });
    uploadMessageImage(file, {
      signal: controller.signal,
      onProgress: (progress) =>
        upload.current === controller && setPicked({ status: "uploading", previewUrl, progress }),
    }).then(
      (result) => upload.current === controller && setPicked({ status: "done", previewUrl, result }),
      (error: unknown) => {
        if (isAbort(error) || upload.current !== controller) return;
        setPicked({ status: "error", previewUrl, error: uploadErrorMessage(error, IMAGE_RULES.failed) });
      },
    );
  };

  const removeImage = () => {
    upload.current?.abort();
    upload.current = null;
    setPicked(null);
  };

  const trimmed = body.trim();
  const ready = canSend && !send.isPending && picked?.status !== "uploading" && (trimmed || picked?.status === "done");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!ready) return;
    const input: SendInput = { body: trimmed };
    if (picked?.status === "done") input.image_key = picked.result.key;
    setProblem(null);
    send.mutate(input, {
      onSuccess: () => {
        setBody("");
        setPicked(null);
        upload.current = null;
        onSent();
        textarea.current?.focus();
      },
      onError: (error) => setProblem(sendError(error)),
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const nearLimit = body.length > MESSAGE_LIMITS.bodyMax - 200;

  return (
    <form
      onSubmit={submit}
      aria-label="Write a message"
      className="border-t border-stone-200 bg-white px-3 pt-3 pb-3 sm:px-4"
    >
      {!canSend && (
        <div className="mb-2 flex items-center gap-2 rounded-lg bg-stone-100 px-3 py-2 text-sm text-stone-700">
          <Ban className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
          <p id={`${id}-cannot`} className="min-w-0 flex-1">
            {MESSAGING_MESSAGES.cannotMessage}
          </p>
          {blocked && (
            <Button variant="secondary" size="sm" onClick={onUnblock}>
              Unblock
            </Button>
          )}
        </div>
      )}
      {problem && (
        <FormMessage tone="error" className="mb-2">
          {problem}
        </FormMessage>
      )}
      {picked && (
        <div className="mb-2 flex items-center gap-3">
          <div className="relative">
            <img
              src={picked.previewUrl}
              alt="Image to send"
              className={cn(
                "size-16 rounded-lg object-cover ring-1 ring-stone-200",
                picked.status === "uploading" && "opacity-60",
              )}
            />
            <button
              type="button"
              onClick={removeImage}
              aria-label="Remove image"
              className="absolute -top-2 -right-2 flex size-6 cursor-pointer items-center justify-center rounded-full bg-stone-800 text-white shadow ring-2 ring-white hover:bg-stone-900"
            >
              <X className="size-3.5" aria-hidden="true" />
            </button>
          </div>
          {picked.status === "uploading" && (
            <p className="text-sm text-stone-600" role="status">
              Uploading… {Math.round(picked.progress * 100)}%
            </p>
          )}
          {picked.status === "error" && <p className="text-sm text-red-700">{picked.error}</p>}
        </div>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) pickImage(file);
            e.target.value = "";
          }}
        />
        <Button
          variant="ghost"
          size="icon"
          className="size-10 shrink-0 rounded-full"
          aria-label="Attach an image"
          disabled={!canSend}
          onClick={() => fileInput.current?.click()}
        >
          <ImagePlus className="size-5" aria-hidden="true" />
        </Button>
        <label htmlFor={`${id}-body`} className="sr-only">
          Message
        </label>
        <textarea
          ref={textarea}
          id={`${id}-body`}
          value={body}
          disabled={!canSend}
          aria-describedby={canSend ? undefined : `${id}-cannot`}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={onKeyDown}
          maxLength={MESSAGE_LIMITS.bodyMax}
          rows={Math.min(6, Math.max(1, body.split("\n").length))}
          placeholder={canSend ? `${MESSAGING_MESSAGES.bodyRequired}…` : ""}
          className="max-h-40 min-h-10 flex-1 resize-none rounded-2xl border border-stone-300 bg-stone-50 px-4 py-2 text-[0.9375rem] text-stone-900 placeholder:text-stone-500 focus:border-brand-500 focus:bg-white focus:outline-2 focus:outline-offset-0 focus:outline-brand-200 disabled:cursor-not-allowed disabled:opacity-60"
        />
        <Button
          type="submit"
          size="icon"
          className="size-10 shrink-0 rounded-full"
          aria-label="Send"
          disabled={!ready}
          loading={send.isPending}
        >
          {!send.isPending && <SendHorizontal className="size-5" aria-hidden="true" />}
        </Button>
      </div>
      {nearLimit && (
        <p
          className={cn(
            "mt-1 text-right text-xs",
            body.length >= MESSAGE_LIMITS.bodyMax ? "text-red-700" : "text-stone-600",
          )}
        >
          {body.length}/{MESSAGE_LIMITS.bodyMax}
        </p>
      )}
    </form>
  );
}
