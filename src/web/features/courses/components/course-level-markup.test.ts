import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LEVEL_MESSAGES } from "#shared/levels";
import { courseLockText, lockedForMember, viewerLevelText } from "../format";
import { PriceBadge } from "./course-bits";

// A course unlocked at a level, as its card, header and lesson lock word it.

const course = {
  access: "level" as const,
  tier_names: [],
  price: 0,
  currency: "usd",
  unlock_level: 3,
  unlock_level_name: "Insider",
};

describe("a course unlocked at a level", () => {
  it("says what unlocks it with the community's level name (the shared message)", () => {
    expect(courseLockText(course)).toBe(LEVEL_MESSAGES.courseLocked(3, "Insider"));
    expect(courseLockText(course)).toBe("Unlocks at level 3 (Insider)");
    expect(courseLockText({ ...course, unlock_level_name: null })).toBe("Unlocks at level 3");
  });

  it("shows the lock to members below the level, with their own level", () => {
    expect(lockedForMember({ lock_reason: "level" })).toBe(true);
    expect(lockedForMember({ lock_reason: "join" })).toBe(false);
    expect(lockedForMember({ lock_reason: null })).toBe(false);
    expect(viewerLevelText({ lock_reason: "level", viewer_level: 2, unlock_level: 3 })).toBe("You are at level 2 of 3");
    expect(viewerLevelText({ lock_reason: null, viewer_level: 4, unlock_level: 3 })).toBeNull();
    const locked = renderToStaticMarkup(createElement(PriceBadge, { course, locked: true }));
    expect(locked).toContain("Unlocks at level 3 (Insider)");
    expect(locked).toContain("<svg");
    const open = renderToStaticMarkup(createElement(PriceBadge, { course, locked: false }));
    expect(open).toContain("Unlocks at level 3 (Insider)");
    expect(open).not.toContain("<svg");
  });
});
