import { linkify } from "#web/features/posts";
import { cn } from "#web/lib/cn";

/** Links people post in messages: opened apart, with no referrer and no endorsement. */
const LINK_REL = "noopener noreferrer nofollow ugc";

/**
 * A message's body as text: line breaks kept, http(s) links clickable, nothing ever parsed as
 * HTML (the parts are React text and anchors).
 */
export function MessageText({ text, mine }: { text: string; mine: boolean }) {
  return (
    <p className="leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap">
      {linkify(text).map((part, i) =>
        part.kind === "link" ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel={LINK_REL}
            className={cn(
              "font-medium underline underline-offset-2",
              mine
                ? "text-white decoration-white/60 hover:decoration-white"
                : "text-brand-800 decoration-brand-300 hover:decoration-brand-700",
            )}
          >
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
