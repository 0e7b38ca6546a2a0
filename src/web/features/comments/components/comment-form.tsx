import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { MSG } from "#shared/messages";
import { POST_LIMITS } from "#shared/posts";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";

const SPECIFIC_CODES = ["VALIDATION", "CONFLICT", "FORBIDDEN", "NOT_FOUND"] as const;

/**
 * A comment, reply or edit box: the submit button stays disabled while the text is blank;
 * Ctrl/⌘+Enter submits and Escape cancels (when there is something to cancel).
 */
export function CommentForm({
  label,
  placeholder,
  submitLabel,
  initial = "",
  autoFocus = false,
  avatar,
  onSubmit,
  onCancel,
  failureMessage,
  className,
}: {
  /** The text field's accessible name. */
  label: string;
  placeholder: string;
  submitLabel: string;
  initial?: string;
  autoFocus?: boolean;
  /** The writer's picture beside the box. */
  avatar?: { src: string | null | undefined; name: string };
  /** Resolves when saved; throws the ApiError otherwise. */
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  failureMessage: string;
  className?: string;
}) {
  const id = useId();
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Focus with the caret after any prefilled text (a reply's @mention, the comment being edited).
  useEffect(() => {
    const element = textarea.current;
    if (!autoFocus || !element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [autoFocus]);
  const blank = content.trim() === "";
  const unchanged = initial !== "" && content.trim() === initial.trim();
  const nearLimit = content.length > POST_LIMITS.commentMax - 200;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    if (blank) {
      setError(MSG.enterContent);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSubmit(content.trim());
      setContent("");
    } catch (err) {
      setError(errorMessage(err, failureMessage, SPECIFIC_CODES));
    } finally {
      setPending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void submit();
    } else if (event.key === "Escape" && onCancel) {
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <form onSubmit={submit} className={cn("flex items-start gap-3", className)} noValidate>
      {avatar && <Avatar src={avatar.src} name={avatar.name} size="sm" className="mt-1 max-sm:hidden" />}
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <textarea
          id={id}
          value={content}
          onChange={(e) => {
            setContent(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          placeholder={placeholder}
          maxLength={POST_LIMITS.commentMax}
          ref={textarea}
          rows={2}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={cn(
            inputClasses,
            "field-sizing-content max-h-72 min-h-16 resize-none py-2 leading-relaxed max-sm:text-base",
          )}
        />
        <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
          <div className="mr-auto min-w-0 text-sm" aria-live="polite">
            {error ? (
              <p id={`${id}-error`} className="text-red-700">
                {error}
              </p>
            ) : nearLimit ? (
              <p className="text-stone-600 tabular-nums">
                {content.length.toLocaleString("en-US")} / {POST_LIMITS.commentMax.toLocaleString("en-US")}
              </p>
            ) : null}
          </div>
          {onCancel && (
            <Button variant="ghost" size="sm" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          )}
          <Button type="submit" size="sm" disabled={blank || unchanged} loading={pending}>
            {submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
