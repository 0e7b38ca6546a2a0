import { sql } from "drizzle-orm";
import type { Queryable } from "#server/db/client";

/**
 * Who may fetch a personal upload (`user-uploads/…`, by its original's key): anyone while no
 * message shows it (a personal image is public); once a message shows it, only the two people of
 * each conversation where a message still shows it, and the person who uploaded it. Everyone else
 * is answered as for a missing file.
 */
export async function messageImageAccess(
  db: Queryable,
  key: string,
  viewerId: string | null,
): Promise<"public" | "restricted" | "denied"> {
  const res = await db.execute<{ in_message: boolean; allowed: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM direct_messages d WHERE d.image_key = ${key}) AS in_message,
           (EXISTS (SELECT 1 FROM direct_messages d
                      JOIN conversation_members cm ON cm.conversation_id = d.conversation_id
                                                  AND cm.user_id = ${viewerId ?? ""}
                     WHERE d.image_key = ${key} AND d.deleted_at IS NULL)
            OR EXISTS (SELECT 1 FROM media_files f WHERE f.key = ${key} AND f.owner_id = ${viewerId ?? ""})) AS allowed`);
  const r = res.rows[0];
  if (!r.in_message) return "public";
  return r.allowed ? "restricted" : "denied";
}
