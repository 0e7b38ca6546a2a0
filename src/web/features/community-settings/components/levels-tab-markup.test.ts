import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_NAMES, DEFAULT_LEVEL_THRESHOLDS, LEVEL_MESSAGES } from "#shared/levels";
import { LevelsForm, levelsFormSchema } from "./levels-tab";

// Settings → Levels as markup, and its form's checks (the shared schema's messages).

const saved = {
  names: [...DEFAULT_LEVEL_NAMES],
  thresholds: [...DEFAULT_LEVEL_THRESHOLDS],
  points_per_lesson: 2,
  points_per_event: 0,
  min_post_level: 3,
};

describe("Levels tab", () => {
  it("shows nine names with their points, the bonus switches and the level to post", () => {
    const client = new QueryClient();
    const html = renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client },
        createElement(LevelsForm, { communityId: "c1", saved, onDirtyChange: () => {} }),
      ),
    );
    for (let level = 1; level <= 9; level++) expect(html).toContain(`Level ${level} name`);
    expect(html.match(/type="number"/g)).toHaveLength(9 + 1); // thresholds, and the lesson points (switched on)
    expect(html).toContain("Points per completed lesson");
    expect(html).toContain("Points per attended event");
    expect(html).toContain("Level needed to post");
  });

  it("refuses thresholds out of order and a level 1 above 0, with the shared messages", () => {
    const bad = levelsFormSchema.safeParse({ ...saved, thresholds: [0, 5, 5, 65, 155, 515, 2015, 8015, 33015] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toContain(LEVEL_MESSAGES.thresholdsOrder);
    const first = levelsFormSchema.safeParse({ ...saved, thresholds: [1, 5, 20, 65, 155, 515, 2015, 8015, 33015] });
    expect(first.error?.issues.map((i) => i.message)).toContain(LEVEL_MESSAGES.firstThreshold);
    const bonus = levelsFormSchema.safeParse({ ...saved, points_per_event: 101 });
    expect(bonus.error?.issues.map((i) => i.message)).toContain(LEVEL_MESSAGES.bonusRange);
    expect(levelsFormSchema.safeParse(saved).success).toBe(true);
  });
});
