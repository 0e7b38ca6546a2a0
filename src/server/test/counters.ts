import type pg from "pg";

/** Every stored counter and the rows it counts: a row listed by counterDrift has drifted. */
const COUNTERS = {
  "posts.likes_count": `SELECT id FROM posts p WHERE likes_count <> (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)`,
  "posts.comments_count": `SELECT id FROM posts p
     WHERE comments_count <> (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL)`,
  "comments.likes_count": `SELECT id FROM comments c
     WHERE likes_count <> (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id)`,
  "communities.member_count": `SELECT id FROM communities c
     WHERE member_count <> (SELECT count(*) FROM community_members m WHERE m.community_id = c.id)`,
  "communities.post_count": `SELECT id FROM communities c
     WHERE post_count <> (SELECT count(*) FROM posts p WHERE p.community_id = c.id AND p.is_approved AND p.deleted_at IS NULL)`,
};

/** The rows whose counters differ from their rows, by counter (empty when none drifted). */
export async function counterDrift(pool: pg.Pool): Promise<Record<string, string[]>> {
  const drift: Record<string, string[]> = {};
  for (const [counter, text] of Object.entries(COUNTERS)) {
    const ids = (await pool.query<{ id: string }>(text)).rows.map((r) => r.id);
    if (ids.length > 0) drift[counter] = ids;
  }
  return drift;
}
