import { useState } from "react";
import { cn } from "#web/lib/cn";
import { linkify } from "./linkify";

const LONG_CHARS = 900;
const LONG_LINES = 12;

export const linkRel = "noopener noreferrer nofollow ugc";

/**
 * Post text as text: line breaks kept, http(s) links clickable (opening in a new tab), nothing
 * ever parsed as HTML. Long posts start folded with "Show more".
 */
export function PostText({ text, id, className }: { text: string; id?: string; className?: string }) {
  const long = text.length > LONG_CHARS || text.split("\n").length > LONG_LINES;
  const [expanded, setExpanded] = useState(false);
  const folded = long && !expanded;
  return (
    <div className={className}>
      <div
        id={id}
        className={cn(
          "leading-relaxed [overflow-wrap:anywhere] whitespace-pre-line text-stone-800",
          folded && "line-clamp-[10]",
        )}
      >
        {linkify(text).map((part, i) =>
          part.kind === "link" ? (
            <a
              key={i}
              href={part.href}
              target="_blank"
              rel={linkRel}
              className="font-medium text-brand-800 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700"
            >
              {part.text}
            </a>
          ) : (
            part.text
          ),
        )}
      </div>
      {long && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((v) => !v)}
          className="mt-1 cursor-pointer text-sm font-semibold text-stone-700 hover:text-stone-900 hover:underline"
        >
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </div>
  );
}
