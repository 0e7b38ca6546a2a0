/**
 * What a name shown to other people may contain (community, display and user names, category names,
 * course titles): no character that hides text, reorders it or makes it look like another name.
 * Shared by the server's schemas and the web forms, so both refuse with the same message.
 *
 * Refused:
 * - control characters (Cc, among them tabs and line breaks), line and paragraph separators;
 * - format characters (Cf): the bidi marks, embeddings, overrides and isolates (U+061C, U+200E,
 *   U+200F, U+202A–202E, U+2066–2069), zero-width space, word joiner, BOM, soft hyphen, invisible
 *   operators, tag characters; except the two joiners below and the tags of a flag emoji;
 * - unassigned and private-use code points and lone surrogates (they render as anything or nothing);
 * - the Hangul fillers, which look like nothing and make 'blank' names.
 *
 * Zero-width joiner (U+200D) and non-joiner (U+200C): scripts that shape letters need them (Persian
 * and Arabic, the Indic scripts, Sinhala, Myanmar, Khmer, Mongolian...), and the joiner builds emoji
 * such as 👩‍💻. So each is allowed only between two letters or marks of such a script, and the
 * joiner also between two emoji. Anywhere else (inside a Latin, Cyrillic or Greek word, at an edge)
 * it only hides a difference between two names that look the same, and is refused.
 *
 * Mixed scripts: one word (a run of letters and marks) mixing Latin, Cyrillic and Greek letters,
 * the alphabets whose letters look alike ('Сreator' with a Cyrillic С), is refused. Japanese and
 * other scripts mix freely, and separate words may be in different alphabets.
 *
 * A community name that only looks like another community's name (UTS #39 confusables skeleton) is
 * refused by the server, which holds the names (migration 0013).
 */

import type { z } from "zod";
import { MSG } from "./messages";

const JOINING_SCRIPTS =
  "\\p{sc=Arabic}\\p{sc=Syriac}\\p{sc=Nko}\\p{sc=Thaana}\\p{sc=Mongolian}\\p{sc=Devanagari}\\p{sc=Bengali}" +
  "\\p{sc=Gurmukhi}\\p{sc=Gujarati}\\p{sc=Oriya}\\p{sc=Tamil}\\p{sc=Telugu}\\p{sc=Kannada}\\p{sc=Malayalam}" +
  "\\p{sc=Sinhala}\\p{sc=Myanmar}\\p{sc=Khmer}\\p{sc=Tibetan}\\p{sc=Javanese}\\p{sc=Balinese}\\p{sc=Grantha}";
const SHAPED = `[${JOINING_SCRIPTS}]`;
/** An emoji with its optional variation selector and skin tone. */
const EMOJI = "\\p{Extended_Pictographic}\\uFE0F?[\\u{1F3FB}-\\u{1F3FF}]?";

/** Joiners where a script or an emoji needs them; removed before the other checks. */
const ALLOWED_JOINER = new RegExp(
  `(?<=${SHAPED})[\\u200C\\u200D](?=${SHAPED})|(?<=${EMOJI})\\u200D(?=\\p{Extended_Pictographic})`,
  "gu",
);
/** A subdivision flag: black flag, tag letters or digits, cancel tag (🏴󠁧󠁢󠁳󠁣󠁴󠁿). */
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,8}\u{E007F}/gu;

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

const WORD = /[\p{L}\p{M}]+/gu;
const LOOKALIKE_SCRIPTS = [/\p{sc=Latin}/u, /\p{sc=Cyrillic}/u, /\p{sc=Greek}/u];

/** True when the name holds a control, bidi, zero-width or other invisible character (see above). */
export function hasHiddenCharacters(value: string): boolean {
  const rest = value.replace(FLAG_TAGS, "\u{1F3F4}").replace(ALLOWED_JOINER, "");
  return HIDDEN.test(rest);
}

/** The name without its hidden characters (for names that come from elsewhere, such as Google's). */
export function stripHiddenCharacters(value: string): string {
  const kept = new Set<number>();
  for (const re of [ALLOWED_JOINER, FLAG_TAGS]) {
    for (const m of value.matchAll(re)) for (let i = m.index; i < m.index + m[0].length; i++) kept.add(i);
  }
  let out = "";
  let i = 0;
  for (const ch of value) {
    if (kept.has(i) || !HIDDEN.test(ch)) out += ch;
    i += ch.length;
  }
  return out;
}

/** True when one word mixes letters of Latin, Cyrillic or Greek. */
export function hasMixedScriptWord(value: string): boolean {
  for (const [word] of value.matchAll(WORD)) {
    if (LOOKALIKE_SCRIPTS.filter((script) => script.test(word)).length > 1) return true;
  }
  return false;
}

/** The first rule a name breaks, as the message to show, or null. */
export function nameProblem(value: string): string | null {
  if (hasHiddenCharacters(value)) return MSG.nameHiddenCharacters;
  if (hasMixedScriptWord(value)) return MSG.nameMixedScripts;
  return null;
}

/** A string schema that also applies the rules above (after its own trim and length checks). */
export const safeName = (schema: z.ZodString) =>
  schema.superRefine((value, ctx) => {
    const problem = nameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
