/** Text and its [start, end) spans (the API sends them as pairs). */
export type HighlightedValue = { text: string; highlights: readonly (readonly number[])[] };

export type Segment = { text: string; mark: boolean };

/**
 * Text cut at its highlight offsets ([start, end) in UTF-16 code units): the spans to mark and the
 * text between. Offsets out of range, reversed, empty or overlapping an earlier span are clamped
 * or skipped, so a bad span never hides or repeats text.
 */
export function splitHighlights({ text, highlights }: HighlightedValue): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  const spans = [...highlights].sort((a, b) => a[0] - b[0]);
  for (const [rawStart, rawEnd] of spans) {
    const start = Math.max(at, Math.min(rawStart, text.length));
    const end = Math.min(rawEnd, text.length);
    if (end <= start) continue;
    if (start > at) segments.push({ text: text.slice(at, start), mark: false });
    segments.push({ text: text.slice(start, end), mark: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), mark: false });
  return segments;
}
