import { sql, type SQL } from "drizzle-orm";
import { SEARCH_LIMITS } from "#shared/search";

/*
 * A person's query turned into terms, and the terms into a tsquery built in SQL from quoted tokens:
 * user text never reaches to_tsquery's parser, so operators, quotes and backslashes are just
 * characters that separate words.
 */

const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
/** A run of CJK characters, or a word of other letters, digits and marks. */
const TOKEN_RE = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, "gu");
const CJK_RE = new RegExp(`^[${CJK}]`, "u");

/** Terms looked at in one query; the rest are dropped. */
export const MAX_TERMS = 12;

export type Term = { text: string; cjk: boolean; prefix: boolean };
/** A word or CJK run (one term), or a quoted phrase (several, adjacent). */
export type Clause = { phrase: boolean; terms: Term[] };

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\x00-\x7f]/;
/** Whether every character of `s` is ASCII (whose fold is its lower case, offsets kept). */
export const isAscii = (s: string) => !NON_ASCII_RE.test(s);

/** Lower-case, accents removed: how words are compared for highlights (the database uses unaccent). */
export const fold = (s: string) =>
  // ASCII has no accents to remove (and most words are ASCII): lower-casing is the whole fold.
  isAscii(s) ? s.toLowerCase() : s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");

function tokens(text: string): Term[] {
  return [...text.matchAll(TOKEN_RE)].map((m) => ({ text: m[0], cjk: CJK_RE.test(m[0]), prefix: false }));
}

/**
 * Clauses of a query cut to SEARCH_LIMITS.queryMax: quoted parts are phrases, the rest single terms.
 * The last term is a prefix while the person is still typing it (no space or quote after it; two
 * characters at least, any CJK character).
 */
export function parseQuery(raw: string): Clause[] {
  const q = raw.slice(0, SEARCH_LIMITS.queryMax);
  const clauses: Clause[] = [];
  const parts = q.split('"');
  parts.forEach((part, i) => {
    const quoted = i % 2 === 1 && i < parts.length - 1;
    const found = tokens(part);
    if (quoted && found.length > 1) clauses.push({ phrase: true, terms: found });
    else for (const t of found) clauses.push({ phrase: false, terms: [t] });
  });
  const kept = clauses.slice(0, MAX_TERMS);
  const last = kept.at(-1);
  const open = /[\p{L}\p{N}\p{M}]$/u.test(q);
  if (last && !last.phrase && open && kept.length === clauses.length) {
    const t = last.terms[0];
    t.prefix = t.cjk || [...t.text].length >= 2;
  }
  return kept;
}

/** The CJK bigrams of a run (the run itself when it is one character). */
export function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return [...new Set(chars.slice(0, -1).map((c, i) => c + chars[i + 1]))];
}

/** A CJK run as a tsquery: its bigrams all present (a single character: any bigram it starts). */
function cjkQuery(t: Term): SQL {
  const grams = bigrams(t.text);
  const text =
    grams.length === 1 && [...grams[0]].length === 1 ? `'${grams[0]}':*` : grams.map((g) => `'${g}'`).join(" & ");
  return sql`to_tsquery('simple', ${text})`;
}

/** The tsquery of the clauses (null: nothing searchable, e.g. only punctuation or emoji). */
export function tsquerySql(clauses: Clause[]): SQL | null {
  if (clauses.length === 0) return null;
  const parts = clauses.map((c) => {
    if (!c.phrase) {
      const t = c.terms[0];
      return t.cjk ? cjkQuery(t) : sql`hearth_search_word(${t.text}, ${t.prefix})`;
    }
    const words = c.terms.map((t) => (t.cjk ? cjkQuery(t) : sql`hearth_search_exact(${t.text}, false)`));
    return words.reduce((acc, w) => sql`tsquery_phrase(${acc}, ${w})`);
  });
  return sql`(${sql.join(parts, sql` && `)})`;
}
