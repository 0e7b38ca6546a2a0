import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_THRESHOLDS, levelOf, pointsToNextLevel } from "#shared/levels";
import { LevelLadder, LevelProgress, progressPercent, progressText, type LadderRung } from "./level-ladder";

// The leaderboard's level ladder and the viewer's progress, as markup.

const NAMES = ["Newcomer", "Regular", "Helper", "Star", "Five", "Six", "Seven", "Eight", "Legend"];
const ladder: LadderRung[] = NAMES.map((name, i) => ({
  level: i + 1,
  name,
  threshold: DEFAULT_LEVEL_THRESHOLDS[i],
  members: i === 0 ? 6 : i === 2 ? 3 : i === 3 ? 1 : 0,
  share: i === 0 ? 60 : i === 2 ? 30 : i === 3 ? 10 : 0,
}));
const viewerAt = (points: number) => ({
  points,
  level: levelOf(points),
  next: pointsToNextLevel(points),
});

describe("LevelProgress", () => {
  it("says how many points the next level needs, from the shared helpers", () => {
    const viewer = viewerAt(53);
    expect(viewer).toMatchObject({ level: 3, next: { level: 4, points: 12 } });
    expect(progressText(viewer, NAMES)).toBe("Level 3 (Helper) · 12 points to level 4");
    // 20 → 65: 33 of 45 points done.
    expect(progressPercent(viewer, DEFAULT_LEVEL_THRESHOLDS)).toBe(73);
    const html = renderToStaticMarkup(
      createElement(LevelProgress, { viewer, names: NAMES, thresholds: DEFAULT_LEVEL_THRESHOLDS }),
    );
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="73"');
    expect(html).toContain("Level 3 (Helper) · 12 points to level 4");
    expect(html).toContain("width:73%");
  });

  it("at exact boundaries: one point short, and the top level", () => {
    expect(progressText(viewerAt(4), null)).toBe("Level 1 · 1 point to level 2");
    expect(progressText(viewerAt(5), null)).toBe("Level 2 · 15 points to level 3");
    expect(progressPercent(viewerAt(5), DEFAULT_LEVEL_THRESHOLDS)).toBe(0);
    const top = viewerAt(33015);
    expect(progressText(top, NAMES)).toBe("Level 9 (Legend) · the top level");
    expect(progressPercent(top, DEFAULT_LEVEL_THRESHOLDS)).toBe(100);
  });
});

describe("LevelLadder", () => {
  it("lists nine rungs with name, points and share, the viewer's marked", () => {
    const html = renderToStaticMarkup(createElement(LevelLadder, { ladder, viewerLevel: 3 }));
    expect(html.match(/<li /g)).toHaveLength(9);
    expect(html).toContain("Newcomer");
    expect(html).toContain("From the start");
    expect(html).toContain("65 points");
    expect(html).toContain("33,015 points");
    expect(html).toContain('60%<span class="sr-only"> of members</span>');
    const current = html.match(/<li aria-current="true" data-level="(\d)"/g);
    expect(current).toEqual(['<li aria-current="true" data-level="3"']);
    expect(html).toContain('aria-label="Level 4 (Star)"');
  });
});
