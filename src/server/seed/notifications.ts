import { sql } from "drizzle-orm";
import type { DemoAccount, Tx } from "./communities";

/**
 * The demo accounts' recent notifications, derived from the seeded likes, comments, joins and
 * pending requests to join (the same titles `notify()` writes): the newest few of each kind, those older than two days read. No
 * digest is scheduled: the demo should not mail anyone on its first start.
 */
export async function seedNotifications(input: {
  tx: Tx;
  accounts: Record<DemoAccount, { id: string }>;
}): Promise<number> {
  const { tx, accounts } = input;
  const ids = [accounts.owner.id, accounts.member.id];
  const res = await tx.execute(sql`
    WITH demo AS (SELECT unnest(${sql.param(ids)}::text[]) AS user_id),
    name AS (SELECT user_id, coalesce(nullif(btrim(full_name), ''), username) AS name FROM user_profiles),
    likes AS (
      SELECT * FROM (
        SELECT p.author_id AS user_id, p.community_id, l.user_id AS actor_id, 'post_like' AS type,
               n.name || ' liked your post' AS title, left(btrim(regexp_replace(p.content, '\\s+', ' ', 'g')), 140) AS body,
               jsonb_build_object('post_id', p.id) AS data, l.created_at,
               row_number() OVER (PARTITION BY p.author_id ORDER BY l.created_at DESC) AS k
          FROM posts p JOIN post_likes l ON l.post_id = p.id JOIN name n ON n.user_id = l.user_id
         WHERE p.author_id IN (SELECT user_id FROM demo) AND l.user_id <> p.author_id AND p.deleted_at IS NULL) x
       WHERE k <= 8),
    replies AS (
      SELECT * FROM (
        SELECT coalesce(pc.author_id, p.author_id) AS user_id, p.community_id, c.author_id AS actor_id, 'post_reply' AS type,
               n.name || CASE WHEN pc.id IS NULL THEN ' commented on your post' ELSE ' replied to your comment' END AS title,
               left(btrim(regexp_replace(c.content, '\\s+', ' ', 'g')), 140) AS body,
               jsonb_build_object('post_id', p.id, 'comment_id', c.id) AS data, c.created_at,
               row_number() OVER (PARTITION BY coalesce(pc.author_id, p.author_id) ORDER BY c.created_at DESC) AS k
          FROM comments c JOIN posts p ON p.id = c.post_id
          LEFT JOIN comments pc ON pc.id = c.parent_id
          JOIN name n ON n.user_id = c.author_id
         WHERE coalesce(pc.author_id, p.author_id) IN (SELECT user_id FROM demo)
           AND c.author_id <> coalesce(pc.author_id, p.author_id) AND c.deleted_at IS NULL AND p.deleted_at IS NULL) x
       WHERE k <= 6),
    joins AS (
      SELECT * FROM (
        SELECT a.user_id, m.community_id, m.user_id AS actor_id, 'community_join' AS type,
               n.name || ' joined your community' AS title, 'Say hello and help them get started.' AS body,
               '{}'::jsonb AS data, m.joined_at AS created_at,
               row_number() OVER (PARTITION BY a.user_id ORDER BY m.joined_at DESC) AS k
          FROM community_members a JOIN community_members m ON m.community_id = a.community_id AND m.user_id <> a.user_id
          JOIN name n ON n.user_id = m.user_id
         WHERE a.user_id IN (SELECT user_id FROM demo) AND a.role IN ('owner', 'admin')) x
       WHERE k <= 5),
    requests AS (
      SELECT a.user_id, r.community_id, r.user_id AS actor_id, 'join_request' AS type,
             n.name || ' asked to join' AS title, 'Their answers are waiting in the Admin tab.' AS body,
             jsonb_build_object('tab', 'admin', 'request_id', r.id) AS data, r.created_at, 1::bigint AS k
        FROM join_requests r
        JOIN community_members a ON a.community_id = r.community_id AND a.role IN ('owner', 'admin')
        JOIN name n ON n.user_id = r.user_id
       WHERE r.status = 'pending' AND a.user_id IN (SELECT user_id FROM demo)),
    everything AS (
      SELECT * FROM likes UNION ALL SELECT * FROM replies UNION ALL SELECT * FROM joins UNION ALL SELECT * FROM requests)
    INSERT INTO notifications (user_id, community_id, actor_id, type, title, body, data, is_read, read_at, emailed_at, created_at)
    SELECT user_id, community_id, actor_id, type, title, body, data,
           created_at < now() - interval '2 days', CASE WHEN created_at < now() - interval '2 days' THEN created_at END,
           created_at, created_at
      FROM everything
    ON CONFLICT DO NOTHING`);
  return res.rowCount ?? 0;
}
