import type { Highlighted } from "#shared/search.schemas";
import { SEARCH_LIMITS } from "#shared/search";
import { bigrams, fold, isAscii, type Clause } from "./search.query";

/*
 * Highlights and snippets, computed here as [start, end) offsets into plain text: the client marks
 * them, no markup travels. A word is marked when it folds (case, accents) to a query term, starts
 * with it (a prefix, or a term of three or more letters), or shares a stem-like prefix with it (all
 * but two of the shorter's letters, at least three): 'running' marks 'run', 'comunidades' marks
 * 'comunidad'. CJK terms mark each of their bigrams where it occurs.
 */

const WORD_RE = /[\p{L}\p{N}\p{M}]+/gu;
/** A lower-case ASCII letter or a digit (what WORD_RE matches in lower-cased ASCII text). */
const isAsciiWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

function commonPrefix(a: string, b: string) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function wordMatches(word: string, term: string, prefix: boolean) {
  if (word === term) return true;
  if (word.startsWith(term) && (prefix || term.length >= 3)) return true;
  const cp = commonPrefix(word, term);
  return cp >= 3 && cp >= Math.min(word.length, term.length) - 2;
}

function merge(ranges: [number, number][]): [number, number][] {
  const sorted = ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** The spans of `text` that match the query. */
export function highlights(text: string, clauses: Clause[]): [number, number][] {
  const words = clauses.flatMap((c) =>
    c.terms.filter((t) => !t.cjk).map((t) => ({ term: fold(t.text), prefix: t.prefix })),
  );
  const grams = clauses.flatMap((c) => c.terms.filter((t) => t.cjk).flatMap((t) => bigrams(t.text)));
  const ranges: [number, number][] = [];
  if (words.length > 0 && isAscii(text) && words.every((q) => isAscii(q.term))) {
    // ASCII text folds by lower-casing, which keeps offsets; and a word can match a term only if it
    // begins with the term's first three letters (or all of a shorter one): look only where they occur.
    const lower = text.toLowerCase();
    for (const key of new Set(words.map((q) => q.term.slice(0, 3)))) {
      for (let i = lower.indexOf(key); i !== -1; i = lower.indexOf(key, i + 1)) {
        if (i > 0 && isAsciiWordChar(lower.charCodeAt(i - 1))) continue;
        let end = i + key.length;
        while (end < lower.length && isAsciiWordChar(lower.charCodeAt(end))) end++;
        const w = lower.slice(i, end);
        if (words.some((q) => wordMatches(w, q.term, q.prefix))) ranges.push([i, end]);
      }
    }
  } else if (words.length > 0) {
    // Every way of matching needs the word to begin as a term does: a word beginning with an ASCII
    // character (whose fold is its lower case) that begins no term is passed over without folding it.
    const firsts = new Set(words.map((q) => q.term.charCodeAt(0)));
    for (const m of text.matchAll(WORD_RE)) {
      const c = m[0].charCodeAt(0);
      if (c < 128 && !firsts.has(c >= 65 && c <= 90 ? c + 32 : c)) continue;
      const w = fold(m[0]);
      if (words.some((q) => wordMatches(w, q.term, q.prefix))) ranges.push([m.index, m.index + m[0].length]);
    }
  }
  for (const g of grams) {
    for (let i = text.indexOf(g); i !== -1; i = text.indexOf(g, i + 1)) ranges.push([i, i + g.length]);
  }
  return merge(ranges);
}

const isLowSurrogate = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/** The whole (short) text with its highlights: titles. */
export function highlightAll(text: string, clauses: Clause[], max = 120): Highlighted {
  const flat = text.replace(/\s+/g, " ").trim();
  let cut = flat.length > max ? flat.slice(0, max) : flat;
  if (cut.length < flat.length && isLowSurrogate(flat, cut.length)) cut = cut.slice(0, -1);
  if (cut.length < flat.length) cut = `${cut.trimEnd()}…`;
  return { text: cut, highlights: highlights(cut, clauses).filter(([, e]) => e <= cut.length) };
}

/** About SEARCH_LIMITS.snippet characters around the first match (the start when none), with an ellipsis where cut. */
export function snippet(text: string, clauses: Clause[], size: number = SEARCH_LIMITS.snippet): Highlighted {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= size) return { text: flat, highlights: highlights(flat, clauses) };
  const first = highlights(flat, clauses)[0]?.[0] ?? 0;
  let start = Math.max(0, Math.min(first - Math.floor(size / 4), flat.length - size));
  if (start > 0) {
    const space = flat.lastIndexOf(" ", start);
    if (space !== -1 && start - space < 20) start = space + 1;
  }
  if (isLowSurrogate(flat, start)) start++;
  let end = Math.min(flat.length, start + size);
  if (end < flat.length && isLowSurrogate(flat, end)) end--;
  const prefix = start > 0 ? "…" : "";
  const body = flat.slice(start, end);
  const out = `${prefix}${body}${end < flat.length ? "…" : ""}`;
  return { text: out, highlights: highlights(out, clauses) };
}
