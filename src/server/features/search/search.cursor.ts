import type { SearchKind, SearchOrder } from "#shared/search";
import { SEARCH_MESSAGES } from "#shared/search";
import { AppError } from "#server/lib/errors";

/** Where a page ended: its last result's rank (relevance), time and id, for the same kind and order. */
export type Cursor = { k: SearchKind; o: SearchOrder; r: number; t: string; i: string };

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

const badCursor = () => new AppError("VALIDATION", SEARCH_MESSAGES.badCursor);

export function decodeCursor(raw: string | undefined, kind: SearchKind, order: SearchOrder): Cursor | null {
  if (!raw) return null;
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Cursor;
  } catch {
    throw badCursor();
  }
  const ok =
    c !== null &&
    typeof c === "object" &&
    c.k === kind &&
    c.o === order &&
    typeof c.r === "number" &&
    Number.isFinite(c.r) &&
    typeof c.t === "string" &&
    !Number.isNaN(Date.parse(c.t)) &&
    typeof c.i === "string" &&
    c.i.length <= 100;
  if (!ok) throw badCursor();
  return c;
}

/** Page order: relevance (rank, then newest) or newest; ids break ties. */
export type Ordered = { rank: number; t: string; id: string };

function compare(a: Ordered, b: Ordered, order: SearchOrder) {
  if (order === "relevance" && a.rank !== b.rank) return b.rank - a.rank;
  if (a.t !== b.t) return a.t < b.t ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** One page of rows already filtered in code (courses and lessons), in order after the cursor. */
export function pageInCode<T extends Ordered>(rows: T[], order: SearchOrder, after: Cursor | null, limit: number) {
  const sorted = [...rows].sort((a, b) => compare(a, b, order));
  const from = after ? sorted.filter((r) => compare(r, { rank: after.r, t: after.t, id: after.i }, order) > 0) : sorted;
  return from.slice(0, limit + 1);
}
