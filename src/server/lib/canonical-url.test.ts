import { describe, expect, it } from "vitest";
import { canonicalUrl } from "./canonical-url";

describe("canonicalUrl", () => {
  it("leaves canonical paths and their query strings alone", () => {
    for (const url of [
      "/",
      "/api/me",
      "/api/posts/abc?cursor=%2e%2e%2F&x=1",
      "/c/my-space/about",
      "/media/a.b/c.webp",
    ]) {
      expect(canonicalUrl(url)).toBe(url);
    }
  });

  it("decodes escaped unreserved characters and upper-cases the other escapes", () => {
    expect(canonicalUrl("/%61pi/communities/%41b%2D_%7E/join")).toBe("/api/communities/Ab-_~/join");
    expect(canonicalUrl("/api/u/caf%c3%a9")).toBe("/api/u/caf%C3%A9");
    expect(canonicalUrl("/api/a%2fb")).toBe("/api/a%2Fb");
  });

  it("resolves dot segments, plain and encoded, as a browser does", () => {
    expect(canonicalUrl("/api/auth/./sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(canonicalUrl("/api/auth/%2e/sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(canonicalUrl("/api/auth/%2E%2e/auth/sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(canonicalUrl("/api/auth/x/../sign-in/email?a=1")).toBe("/api/auth/sign-in/email?a=1");
    expect(canonicalUrl("/api/x/%2e%2e/%2e%2e/%2e%2e/dev/mailbox")).toBe("/dev/mailbox");
    expect(canonicalUrl("/api/x/.")).toBe("/api/x/");
  });

  it("folds slashes and backslashes, and keeps a trailing slash", () => {
    expect(canonicalUrl("//api//me/")).toBe("/api/me/");
    expect(canonicalUrl("/api/docs/")).toBe("/api/docs/");
    expect(canonicalUrl("/api\\me")).toBe("/api/me");
    expect(canonicalUrl("/\\evil.example/x")).toBe("/evil.example/x");
    expect(canonicalUrl("/api/./me/?x=/")).toBe("/api/me/?x=/");
  });

  it("leaves what is not an origin-form path to the router", () => {
    expect(canonicalUrl("*")).toBe("*");
    expect(canonicalUrl("http://example.com/api/me")).toBe("http://example.com/api/me");
  });
});
