import { type HighlightedValue, splitHighlights } from "../highlights";

/** Text with its matches in <mark>, built from the server's offsets (never markup from the server). */
export function HighlightedText({ value }: { value: HighlightedValue }) {
  return splitHighlights(value).map((segment, i) =>
    segment.mark ? (
      <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-inherit">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  );
}
