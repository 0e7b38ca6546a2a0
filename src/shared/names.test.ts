import { describe, expect, it } from "vitest";
import { communityNameSchema, postCategoriesSchema } from "./communities.schemas";
import { createCourseSchema } from "./courses.schemas";
import { MSG } from "./messages";
import { hasHiddenCharacters, hasMixedScriptWord, nameProblem, stripHiddenCharacters } from "./names";
import { profileUpdateSchema, signUpSchema } from "./validation.schemas";

const GOOD = [
  "Creator Growth Lab",
  "山田 太郎",
  "日本の写真クラブ",
  "Zoë Åström-Núñez",
  "محمد العربي",
  "می\u200Cخواهم", // Persian: a non-joiner between two Arabic-script letters
  "क्\u200Dष", // Devanagari: a joiner after a virama
  "Ελένη Παπαδοπούλου",
  "Сергей Иванов",
  "iPhone клуб", // two alphabets, in separate words
  "Maya 🎨",
  "👩\u200D💻 Coders", // an emoji ZWJ sequence
  "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scots", // a subdivision flag's tags
];

const HIDDEN = [
  "evil\u202Eexe.txt",
  "\u202Aa",
  "\u202Bb",
  "\u202Cc",
  "\u202Dd",
  "\u2066a\u2069",
  "\u2067a",
  "\u2068a",
  "a\u200Eb",
  "a\u200Fb",
  "a\u061Cb",
  "pay\u200Bpal",
  "pay\u200Dpal",
  "pay\u200Cpal",
  "\u200Dstart",
  "👍🏽\u200D",
  "a\u2060b",
  "a\uFEFFb",
  "a\u00ADb",
  "a\u0007b",
  "a\nb",
  "a\tb",
  "a\u2028b",
  "a\u2029b",
  "\u3164",
  "a\u115Fb",
  "a\uE000b", // private use
  "a\u{E0041}b", // a tag character outside a flag
  "a\uD800b", // a lone surrogate
];

describe("name rules", () => {
  it.each(GOOD)("accepts %j", (name) => {
    expect(nameProblem(name)).toBeNull();
  });

  it.each(HIDDEN)("refuses hidden characters in %j", (name) => {
    expect(hasHiddenCharacters(name)).toBe(true);
    expect(nameProblem(name)).toBe(MSG.nameHiddenCharacters);
  });

  it.each(["\u0421reator Growth Lab", "Crеator", "Αpple", "pay\u0440al"])(
    "refuses the mixed-script word in %j",
    (name) => {
      expect(hasMixedScriptWord(name)).toBe(true);
      expect(nameProblem(name)).toBe(MSG.nameMixedScripts);
    },
  );

  it("strips hidden characters but keeps the joiners and tags that belong", () => {
    expect(stripHiddenCharacters("evil\u202Eexe")).toBe("evilexe");
    expect(stripHiddenCharacters("👩\u200D💻 a\u200Bb")).toBe("👩\u200D💻 ab");
    expect(stripHiddenCharacters("می\u200Cخواهم\u0000")).toBe("می\u200Cخواهم");
  });

  it("is applied by every name schema, with the same message", () => {
    const bad = "Ada \u202Eecalevol";
    const results = [
      signUpSchema.safeParse({ name: bad, username: "ada_1", email: "a@example.test", password: "analytical" }),
      profileUpdateSchema.safeParse({ full_name: bad }),
      communityNameSchema.safeParse(bad.slice(0, 30)),
      postCategoriesSchema.safeParse({ categories: [{ name: bad.slice(0, 20), emoji: "" }] }),
      postCategoriesSchema.safeParse({ categories: [{ name: "Intro", emoji: "👋\u202E" }] }),
      createCourseSchema.safeParse({ title: bad, description: "About" }),
    ];
    for (const r of results) {
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toContain(MSG.nameHiddenCharacters);
    }
  });
});
