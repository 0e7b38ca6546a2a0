import { Check, Copy } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { Label } from "#web/components/ui/label";
import { cn } from "#web/lib/cn";
import { useInviteUrl } from "#web/lib/invite-url";

/** The invite link, read-only, with a Copy button that says when it worked. */
export function InviteLinkField({
  code,
  disabled = false,
  label = "Invite link",
  className,
}: {
  code: string;
  disabled?: boolean;
  label?: string;
  className?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "select" | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const url = useInviteUrl(code);

  const copy = async () => {
    window.clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(url);
      setCopied("yes");
    } catch {
      // No clipboard (insecure origin, denied): select the text so Ctrl+C finishes the job.
      input.current?.select();
      setCopied("select");
    }
    timer.current = window.setTimeout(() => setCopied(null), 3000);
  };

  return (
    <div className={className}>
      <Label htmlFor={id} className="mb-1.5">
        {label}
      </Label>
      <div className="flex gap-2">
        <input
          ref={input}
          id={id}
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(
            inputClasses,
            "h-10 min-w-0 flex-1 font-mono text-[13px]",
            disabled && "text-stone-500 line-through",
          )}
          aria-describedby={disabled ? `${id}-off` : undefined}
        />
        <Button
          variant={copied === "yes" ? "soft" : "secondary"}
          onClick={copy}
          disabled={disabled}
          className="sm:w-28"
        >
          {copied === "yes" ? (
            <Check className="size-4" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
          {copied === "yes" ? "Copied!" : "Copy"}
        </Button>
      </div>
      <p className="text-sm text-stone-600 empty:hidden [&:not(:empty)]:mt-1.5" aria-live="polite">
        {disabled ? (
          <span id={`${id}-off`}>The invite link is turned off: nobody can join through it.</span>
        ) : copied === "yes" ? (
          "Link copied to clipboard!"
        ) : copied === "select" ? (
          "Press Ctrl+C (⌘C on a Mac) to copy the selected link."
        ) : null}
      </p>
    </div>
  );
}
