import { describe, expect, it } from "vitest";
import { displayHost, linkify, safeHref } from "./linkify";

describe("linkify", () => {
  it("keeps plain text as one text part", () => {
    expect(linkify("Hello\nworld")).toEqual([{ kind: "text", text: "Hello\nworld" }]);
  });

  it("turns http and https URLs into links and leaves the rest as text", () => {
    expect(linkify("Read https://example.com/a?b=1 and http://x.test now")).toEqual([
      { kind: "text", text: "Read " },
      { kind: "link", text: "https://example.com/a?b=1", href: "https://example.com/a?b=1" },
      { kind: "text", text: " and " },
      { kind: "link", text: "http://x.test", href: "http://x.test/" },
      { kind: "text", text: " now" },
    ]);
  });

  it("leaves trailing punctuation and an unbalanced closing parenthesis outside the link", () => {
    expect(linkify("See https://example.com.")).toEqual([
      { kind: "text", text: "See " },
      { kind: "link", text: "https://example.com", href: "https://example.com/" },
      { kind: "text", text: "." },
    ]);
    expect(linkify("(https://example.com/x)")[1]).toEqual({
      kind: "link",
      text: "https://example.com/x",
      href: "https://example.com/x",
    });
    expect(linkify("https://en.wikipedia.org/wiki/Fire_(disambiguation)")[0]).toMatchObject({
      kind: "link",
      text: "https://en.wikipedia.org/wiki/Fire_(disambiguation)",
    });
  });

  it("never links other schemes or markup", () => {
    const text = 'javascript:alert(1) <a href="javascript:alert(1)">x</a> data:text/html,<script>';
    expect(linkify(text)).toEqual([{ kind: "text", text }]);
    expect(linkify("<img src=x onerror=alert(1)>")).toEqual([{ kind: "text", text: "<img src=x onerror=alert(1)>" }]);
  });

  it("stops a link at quotes and angle brackets", () => {
    expect(linkify('https://example.com/"onmouseover="alert(1)')[0]).toEqual({
      kind: "link",
      text: "https://example.com/",
      href: "https://example.com/",
    });
  });
});

describe("safeHref and displayHost", () => {
  it("accepts only http(s) with a host", () => {
    expect(safeHref("https://example.com")).toBe("https://example.com/");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("http://")).toBeNull();
    expect(safeHref("not a url")).toBeNull();
  });

  it("shows the host without www.", () => {
    expect(displayHost("https://www.example.com/path")).toBe("example.com");
  });
});
