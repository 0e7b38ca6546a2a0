import { sql } from "drizzle-orm";
import type { AppContext } from "#server/context";
import { AppError } from "#server/lib/errors";

// ---------------------------------------------------------------------------------------------
// Directory

type Cursor = { m: number; id: string };
const encodeCursor = (c: Cursor) => Buffer.from(`${c.m}:${c.id}`).toString("base64url");
function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const [m, id] = Buffer.from(raw, "base64url").toString("utf8").split(":");
  const count = Number(m);
  if (!Number.isInteger(count) || !/^[0-9a-f-]{36}$/.test(id ?? "")) throw new AppError("VALIDATION", "Invalid cursor");
  return { m: count, id };
}

/** A LIKE pattern's special characters, escaped (the default escape character is the backslash). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type DirectoryCard = {
  id: string;
  slug: string;
  name: string;
  description: string;
  short_description: string;
  tagline: string;
  category: string | null;
  type: "free" | "paid";
  price: number;
  currency: string;
  member_count: number;
  icon_url: string | null;
  cover_url: string | null;
  is_featured: boolean;
};

/**
 * Public communities by member count (keyset paged on member_count, id), optionally within a
 * category and matching a keyword in the name or description. Private communities appear only when
 * their owner lists them (the card; their content stays private).
 */
export async function findDirectory({
  ctx,
  category,
  q,
  cursor,
  limit,
}: {
  ctx: AppContext;
  category?: string;
  q?: string;
  cursor?: string;
  limit: number;
}): Promise<{ items: DirectoryCard[]; next_cursor: string | null }> {
  const after = decodeCursor(cursor);
  const term = q?.trim();
  // The directory indexes' predicate: public ones and private ones their owner lists.
  const conditions = [sql`(visibility = 'public' OR listed)`];
  if (category) conditions.push(sql`category = ${category}`);
  if (term) conditions.push(sql`(name || ' ' || description) ILIKE ${`%${escapeLike(term)}%`}`);
  const columns = sql`id, slug, name, description, short_description, tagline, category, type,
    price::float8 AS price, currency, member_count, icon_url, cover_url, is_featured`;
  const where = sql.join(conditions, sql` AND `);
  const page = (extra: ReturnType<typeof sql>) => sql`
    SELECT ${columns} FROM communities WHERE ${where} AND ${extra} ORDER BY member_count DESC, id LIMIT ${limit + 1}`;
  // After a cursor, two index ranges: the rest of the cursor's member count, then the smaller
  // counts. One range with "count <= m AND (count < m OR id > x)" would read and discard every row
  // of that count before the cursor (thousands on a deep page of a big directory).
  const res = await ctx.db.execute<DirectoryCard>(
    after
      ? sql`SELECT * FROM ((${page(sql`member_count = ${after.m} AND id > ${after.id}`)})
              UNION ALL (${page(sql`member_count < ${after.m}`)})) AS p
             ORDER BY member_count DESC, id LIMIT ${limit + 1}`
      : sql`SELECT ${columns} FROM communities WHERE ${where} ORDER BY member_count DESC, id LIMIT ${limit + 1}`,
  );
  const rows = res.rows;
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    next_cursor: rows.length > limit && last ? encodeCursor({ m: last.member_count, id: last.id }) : null,
  };
}
