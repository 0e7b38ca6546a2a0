import { cn } from "#web/lib/cn";

/** Links people post in messages: opened apart, with no referrer and no endorsement. */
const LINK_REL = "noopener noreferrer nofollow ugc";

type Part = string | { href: string; text: string };

/** The address when it is an http(s) URL with a host, else null (any other scheme stays text). */
function httpHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits a message into text and links: each run between spaces that contains http:// or https://
 * becomes a link from there on, without the punctuation that ends a sentence. (Kept apart from the
 * posts' parser: sharing it split it into a chunk of its own on the feed's pages.)
 */
function splitLinks(text: string): Part[] {
  return text.split(/(\s+)/).flatMap((run): Part[] => {
    const start = run.search(/https?:\/\//i);
    if (start < 0) return [run];
    const [, address, tail] = /^(.*?)([.,;:!?'")\]]*)$/.exec(run.slice(start))!;
    const href = httpHref(address);
    return href ? [run.slice(0, start), { href, text: address }, tail] : [run];
  });
}

/**
 * A message's body as text: line breaks kept, http(s) links clickable, nothing ever parsed as
 * HTML (the parts are React text and anchors).
 */
export function MessageText({ text, mine }: { text: string; mine: boolean }) {
  return (
    <p className="leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap">
      {splitLinks(text).map((part, i) =>
        typeof part === "string" ? (
          part
        ) : (
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
        ),
      )}
    </p>
  );
}
