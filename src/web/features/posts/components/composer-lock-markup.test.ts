import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LEVEL_MESSAGES } from "#shared/levels";
import { ComposerOpener, type PostLevelGate } from "./composer-opener";

// The feed's composer bar below the community's minimum level to post.

const NAMES = ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];

function render(levelGate?: PostLevelGate) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(ComposerOpener, {
        communityId: "c0ffee00-0000-4000-8000-000000000001",
        communityName: "Lab",
        categories: [],
        canChooseVisibility: false,
        levelGate,
      }),
    ),
  );
}

describe("the composer and the minimum level to post", () => {
  const locked = LEVEL_MESSAGES.postLocked(3, "Three");

  it("says what unlocks posting instead of the composer for members below the level", () => {
    const html = render({ role: "member", level: 2, required: 3, names: NAMES });
    expect(html).toContain(locked);
    expect(html).not.toContain("Write something...");
  });

  it("offers the composer at the level, above it, to exempt roles and without a minimum", () => {
    for (const gate of [
      { role: "member" as const, level: 3, required: 3, names: NAMES },
      { role: "member" as const, level: 5, required: 3, names: NAMES },
      { role: "moderator" as const, level: 1, required: 3, names: NAMES },
      { role: "admin" as const, level: 1, required: 9, names: NAMES },
      { role: "owner" as const, level: 1, required: 9, names: null },
      { role: "member" as const, level: 1, required: 1, names: null },
    ]) {
      const html = render(gate);
      expect(html, JSON.stringify(gate)).toContain("Write something...");
      expect(html).not.toContain("Posting unlocks");
    }
    expect(render()).toContain("Write something...");
  });
});
