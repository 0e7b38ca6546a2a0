// W1 (stored XSS), without the server: the markup checker that xss.test.ts relies on, and the web
// components that turn stored text into links (docblock and the API's cases in xss.test.ts).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LinkPreviewCard } from "#web/features/posts/components/link-preview-card";
import { PostText } from "#web/features/posts/components/post-text";
import { ALL, markupProblems, POST_TEXT, X } from "./xss.test-helpers";

describe("W1: the checker itself", () => {
  it("flags each payload as markup, and passes escaped text", () => {
    for (const p of [X.script, X.img, `<a href="${X.js}">x</a>`, `<p onclick="x">`, `<svg onload=alert(1)>`]) {
      expect(markupProblems(p, ["p", "a"]), p).not.toEqual([]);
    }
    expect(markupProblems("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", ["p"])).toEqual([]);
  });
});

describe("W1: the web components that turn stored text into links", () => {
  it("post text: every payload renders as text; only http(s) URLs become links", () => {
    const html = renderToStaticMarkup(createElement(PostText, { text: POST_TEXT }));
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markupProblems(html, ["div", "a", "button"], { hrefPrefixes: ["https://", "http://"] })).toEqual([]);
    // The quote cannot leave the href: it ends the URL.
    expect(html).toContain('href="https://example.com/"');
  });

  it("link preview card: a script URL renders nothing; hostile fields render as text", () => {
    const hostile = { url: X.js, title: X.script, description: X.img, image: null };
    expect(renderToStaticMarkup(createElement(LinkPreviewCard, { preview: hostile }))).toBe("");
    const html = renderToStaticMarkup(
      createElement(LinkPreviewCard, {
        preview: { url: "https://example.com/a", title: ALL, description: X.img, image: "javascript:alert(1)" },
      }),
    );
    expect(html).toContain("&lt;script&gt;");
    // lucide's icon is the one SVG; it carries no handlers or links.
    expect(
      markupProblems(html, ["a", "span", "svg", "path", "line", "polyline", "rect", "circle"], {
        hrefPrefixes: ["https://"],
      }).filter((p) => !p.startsWith("raw")),
    ).toEqual([]);
    expect(html).not.toContain("<img");
  });
});
