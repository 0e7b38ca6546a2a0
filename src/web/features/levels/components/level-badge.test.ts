import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LevelAvatar, LevelBadge, levelLabel } from "./level-badge";

// The level badge as markup: the number on the avatar's corner, named for assistive technology.

const NAMES = ["Newcomer", "Regular", "Helper", "Star", "Five", "Six", "Seven", "Eight", "Legend"];

describe("LevelBadge", () => {
  it("shows the level and is named 'Level 4 (Star)' with the community's names", () => {
    const html = renderToStaticMarkup(createElement(LevelBadge, { level: 4, names: NAMES }));
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Level 4 (Star)"');
    expect(html).toContain('title="Level 4 (Star)"');
    expect(html).toMatch(/>4<\/span>$/);
  });

  it("is named 'Level 2' with the default names, and shows nothing without a level", () => {
    expect(levelLabel(2, null)).toBe("Level 2");
    expect(renderToStaticMarkup(createElement(LevelBadge, { level: 2 }))).toContain('aria-label="Level 2"');
    expect(renderToStaticMarkup(createElement(LevelBadge, { level: undefined }))).toBe("");
  });

  it("sits on the corner of the avatar it wraps", () => {
    const html = renderToStaticMarkup(
      createElement(LevelAvatar, { level: 9, names: NAMES, children: createElement("img", { alt: "" }) }),
    );
    expect(html).toMatch(/^<span class="relative[^"]*"><img alt=""\/><span role="img" aria-label="Level 9 \(Legend\)"/);
  });
});
