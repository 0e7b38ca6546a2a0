import { describe, expect, it } from "vitest";
import { splitHighlights } from "./highlights";

describe("splitHighlights", () => {
  it("marks each span and keeps the text between", () => {
    expect(splitHighlights({ text: "Try Pyrocat-HD as a semi-stand", highlights: [[4, 11]] })).toEqual([
      { text: "Try ", mark: false },
      { text: "Pyrocat", mark: true },
      { text: "-HD as a semi-stand", mark: false },
    ]);
  });

  it("sorts spans, and clamps or skips ones out of range, empty or overlapping", () => {
    const text = "run running runs";
    const segments = splitHighlights({
      text,
      highlights: [
        [12, 99],
        [0, 3],
        [2, 5],
        [7, 7],
        [-4, -1],
      ],
    });
    expect(segments.map((s) => s.text).join("")).toBe(text);
    expect(segments.filter((s) => s.mark).map((s) => s.text)).toEqual(["run", " r", "runs"]);
  });

  it("gives plain text without highlights, and nothing for an empty text", () => {
    expect(splitHighlights({ text: "日本語のテキスト", highlights: [] })).toEqual([
      { text: "日本語のテキスト", mark: false },
    ]);
    expect(splitHighlights({ text: "", highlights: [[0, 2]] })).toEqual([]);
  });
});
