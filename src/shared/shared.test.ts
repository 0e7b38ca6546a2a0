import { describe, expect, it } from "vitest";
import { badgeCount, formatCount, fullDateTime, shortDate, timeAgo } from "./format";
import { MSG } from "./messages";
import { passwordStrength } from "./password-strength";
import { safeRedirectPath } from "./safe-redirect";
import { checkNewPassword } from "./validation";
import { profileUpdateSchema, signUpSchema, usernameSchema } from "./validation.schemas";

describe("username", () => {
  it.each([
    ["Ada_99", "ada_99"],
    ["  MixedCase  ", "mixedcase"],
    ["abc", "abc"],
    ["a".repeat(30), "a".repeat(30)],
  ])("accepts %j as %j", (input, out) => {
    expect(usernameSchema.parse(input)).toBe(out);
  });
  it.each(["ab", "a".repeat(31), "has space", "dash-ed", "émile", ""])(
    "refuses %j with the spec's message",
    (input) => {
      const res = usernameSchema.safeParse(input);
      expect(res.success).toBe(false);
      expect(res.error?.issues[0].message).toBe(MSG.usernameInvalid);
    },
  );
});

describe("sign-up schema", () => {
  it("requires name, username, email and a password of at least 6", () => {
    const ok = signUpSchema.safeParse({ name: "Ada", username: "ada", email: "Ada@Example.test", password: "123456" });
    expect(ok.success && ok.data.email).toBe("ada@example.test");
    const short = signUpSchema.safeParse({ name: "Ada", username: "ada", email: "a@b.test", password: "12345" });
    expect(short.error?.issues[0].message).toBe(MSG.passwordTooShort);
    expect(signUpSchema.safeParse({ name: " ", username: "ada", email: "a@b.test", password: "123456" }).success).toBe(
      false,
    );
    expect(
      signUpSchema.safeParse({ name: "A", username: "ada", email: "not-an-email", password: "123456" }).success,
    ).toBe(false);
  });
  it("caps the password before it is hashed", () => {
    expect(
      signUpSchema.safeParse({ name: "A", username: "ada", email: "a@b.test", password: "x".repeat(129) }).success,
    ).toBe(false);
    expect(
      signUpSchema.safeParse({ name: "A", username: "ada", email: "a@b.test", password: "x".repeat(128) }).success,
    ).toBe(true);
  });
});

describe("new password check", () => {
  it("gives the mismatch message first, then the length message", () => {
    expect(checkNewPassword("abcdef", "abcdeg", MSG.newPasswordsMismatch)).toBe(MSG.newPasswordsMismatch);
    expect(checkNewPassword("abc", "abc", MSG.passwordsMismatch)).toBe(MSG.passwordTooShort);
    expect(checkNewPassword("abcdef", "abcdef", MSG.passwordsMismatch)).toBeNull();
  });
});

describe("profile schema", () => {
  it("limits the headline to 160 and refuses unknown keys", () => {
    expect(profileUpdateSchema.safeParse({ headline: "x".repeat(160) }).success).toBe(true);
    expect(profileUpdateSchema.safeParse({ headline: "x".repeat(161) }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ role: "admin" }).success).toBe(false);
  });
});

describe("password strength", () => {
  it.each([
    ["", 0, "Weak"],
    ["abcdefgh", 1, "Weak"],
    ["abcdefghijkl", 2, "Fair"],
    ["Abcdefghijkl", 3, "Good"],
    ["Abcdefghijk1", 4, "Strong"],
    ["Abcdefghij1!", 5, "Very Strong"],
    ["a1!", 2, "Fair"],
  ])("scores %j as %i (%s)", (pw, score, label) => {
    expect(passwordStrength(pw)).toEqual({ score, label });
  });
});

describe("safe redirect", () => {
  it.each(["/", "/community/abc", "/signup/pricing?plan=annual", "/community/x#post-1", "/web/%2Fevil"])(
    "keeps %j",
    (p) => {
      expect(safeRedirectPath(p)).toBe(p);
    },
  );
  it.each([
    "//evil.test",
    "/\\evil.test",
    "https:evil.test",
    "https://evil.test",
    "%2F%2Fevil.test",
    "/%2F/evil.test",
    "%2f%2fevil.test",
    "/%5Cevil.test",
    "javascript:alert(1)",
    "evil.test",
    "/\u0000//evil.test",
    "\t//evil.test",
    "",
    null,
    undefined,
    42,
  ])("sends %j home", (p) => {
    expect(safeRedirectPath(p)).toBe("/");
  });
});

describe("formatting", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it.each([
    [0, "just now"],
    [59, "just now"],
    [60, "1m ago"],
    [59 * 60, "59m ago"],
    [3600, "1h ago"],
    [23 * 3600, "23h ago"],
    [24 * 3600, "1d ago"],
    [6 * 86400, "6d ago"],
  ])("%i seconds ago is %j", (s, text) => {
    expect(timeAgo(new Date(now.getTime() - s * 1000), now)).toBe(text);
  });
  it("shows a date from 7 days on", () => {
    expect(timeAgo(new Date("2026-11-10T12:00:00Z"), now)).toBe("Nov 10, 2026");
    expect(timeAgo(new Date("2025-01-02T12:00:00Z"), now)).toBe("Jan 2, 2025");
  });
  it("spells dates and times as en-US does, in the viewer's time zone", () => {
    const short = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
    const full = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" });
    // Every month, both halves of the day, midnight and noon, one- and two-digit days and minutes.
    for (let month = 0; month < 12; month++) {
      for (const [day, hour, minute] of [
        [1, 0, 0],
        [9, 11, 59],
        [15, 12, 0],
        [28, 13, 5],
        [28, 23, 30],
      ]) {
        const d = new Date(2026, month, day, hour, minute);
        expect(shortDate(d)).toBe(short.format(d));
        // ICU may put a narrow no-break space before AM/PM.
        expect(fullDateTime(d.toISOString())).toBe(full.format(d).replace(/\u202f/g, " "));
      }
    }
    expect(shortDate("2026-03-05T12:00:00Z")).toBe(shortDate(new Date("2026-03-05T12:00:00Z")));
  });
  it("formats counts of 1000 and more as x.xk", () => {
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1.0k");
    expect(formatCount(1250)).toBe("1.2k");
    expect(formatCount(999_999)).toBe("999.9k");
  });
  it("shows 9+ above 9 on a badge", () => {
    expect(badgeCount(9)).toBe("9");
    expect(badgeCount(10)).toBe("9+");
    expect(badgeCount(-1)).toBe("0");
  });
});
