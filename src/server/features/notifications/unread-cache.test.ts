import { describe, expect, it } from "vitest";
import { readUntil } from "#server/test/harness";
import {
  community,
  http,
  join,
  like,
  post,
  t,
  user,
  useNotificationsApp,
  type User,
} from "./notifications.test-helpers";

/*
 * The unread count kept per process (lib/unread-cache.ts, migration 0030, issue 23): served without
 * SQL once read, and dropped by every change that can move it, whatever makes the change (here, SQL
 * by hand as well as the API).
 */

useNotificationsApp();

const q = async (text: string, values: unknown[] = []) => (await t.database.pool.query(text, values)).rows;
const count = async (u: User) =>
  (await http.get("/api/notifications/unread-count", { cookie: u.cookie })).body.unread_count as number;

/** Asks until the count is `n` (the database announces a change just after its commit). */
async function countBecomes(u: User, n: number) {
  expect(
    await readUntil(
      () => count(u),
      (last) => last === n,
    ),
  ).toBe(n);
}

/** Resolves once this process has heard `payload` on hearth_feed (after the cache, which listened first). */
const heardOnFeed = (payload: string) =>
  new Promise<void>((resolve) => t.app.ctx.listener.on("hearth_feed", (p) => p === payload && resolve()));

describe("the unread count kept per process", () => {
  it("is kept after the first read, and moves with notifications made, deleted, read, and with what decides who sees them", async () => {
    const owner = await user("Cache Owner");
    const member = await user("Cache Member");
    const c = await community(owner);
    await join(c, member);
    const p = await post(c, member, "Something worth a like");
    await like(p, owner);
    expect(await count(member)).toBe(1);
    // Kept once the like's announcements have been heard: a count read while one arrives is not kept.
    const kept = await readUntil(
      async () => (await count(member)) === 1 && t.app.ctx.unreadCache.size > 0,
      (yes) => yes,
    );
    expect(kept).toBe(true);
    const userId = (await q('SELECT id FROM "user" WHERE email = $1', [member.email]))[0].id as string;

    // A notification written by hand (no code path of the app forgets it): the trigger announces it.
    const [made] = await q(
      `INSERT INTO notifications (user_id, community_id, type, title, body, data)
       VALUES ($1, $2, 'new_post', 'By hand', '', '{}') RETURNING id`,
      [userId, c.id],
    );
    await countBecomes(member, 2);
    await q("DELETE FROM notifications WHERE id = $1", [made.id]);
    await countBecomes(member, 1);

    // The post of the like notification deleted: the notification is no longer seen (hearth_feed).
    await q("UPDATE posts SET deleted_at = now() WHERE id = $1", [p.id]);
    await countBecomes(member, 0);
    await q("UPDATE posts SET deleted_at = NULL WHERE id = $1", [p.id]);
    await countBecomes(member, 1);

    // The community made private, then the member removed by hand (hearth_public, hearth_members).
    await q(
      `INSERT INTO notifications (user_id, community_id, type, title, body, data)
       VALUES ($1, $2, 'new_post', 'Community news', '', '{}')`,
      [userId, c.id],
    );
    await countBecomes(member, 2);
    await q("UPDATE communities SET visibility = 'private' WHERE id = $1", [c.id]);
    expect(await count(member)).toBe(2);
    await q("DELETE FROM community_members WHERE community_id = $1 AND user_id = $2", [c.id, userId]);
    await countBecomes(member, 0);
    await q("INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'member')", [c.id, userId]);
    await countBecomes(member, 2);

    // Reading them through the API: the answer and the next ask are 0 at once in this process.
    const res = await http.post("/api/notifications/read-all", {}, { cookie: member.cookie });
    expect(res.status).toBe(200);
    expect(res.body.unread_count).toBe(0);
    expect(await count(member)).toBe(0);
    // Unread again by hand.
    await q("UPDATE notifications SET is_read = false WHERE user_id = $1", [userId]);
    await countBecomes(member, 2);
  });

  it("does not keep a count read while something that could move it changed", async () => {
    const cache = t.app.ctx.unreadCache;
    let reads = 0;
    const read = (during?: () => void) => async () => {
      reads++;
      during?.();
      return { count: reads, communities: ["c-race"] };
    };
    // The person's own notifications changed while their count was read: not kept.
    expect(
      await cache.get(
        "race-user",
        read(() => cache.forgetUser("race-user")),
      ),
    ).toBe(1);
    expect(await cache.get("race-user", read())).toBe(2);
    expect(await cache.get("race-user", read())).toBe(2);
    expect(reads).toBe(2);

    // Someone else's change does not stop it being kept.
    cache.forgetUser("race-user");
    expect(
      await cache.get(
        "race-user",
        read(() => cache.forgetUser("someone-else")),
      ),
    ).toBe(3);
    expect(await cache.get("race-user", read())).toBe(3);

    // A change to one of its communities, announced by the database while the count was read: not kept.
    cache.forgetUser("race-user");
    const heard = heardOnFeed("c-race");
    const slow = async () => {
      reads++;
      await q("SELECT pg_notify('hearth_feed', 'c-race')");
      await heard;
      return { count: reads, communities: ["c-race"] };
    };
    const during = await cache.get("race-user", slow);
    expect(await cache.get("race-user", read())).toBe(during + 1);
    // A change to a community it does not depend on, once heard (the cache hears it first), does not drop it.
    const elsewhere = heardOnFeed("c-elsewhere");
    await q("SELECT pg_notify('hearth_feed', 'c-elsewhere')");
    await elsewhere;
    expect(await cache.get("race-user", read())).toBe(during + 1);
    // One to a community it depends on does.
    const again = heardOnFeed("c-race");
    await q("SELECT pg_notify('hearth_feed', 'c-race')");
    await again;
    expect(await cache.get("race-user", read())).toBe(during + 2);

    // A new post there (migration 0040 names it) changes no one's unread notifications: still kept.
    // A change to one of its posts (deleted, hidden, approved, moved) drops it.
    const announce = async (payload: string) => {
      const heardIt = heardOnFeed(payload);
      await q("SELECT pg_notify('hearth_feed', $1)", [payload]);
      await heardIt;
    };
    await announce("c-race/p-1/new/u-1");
    expect(await cache.get("race-user", read())).toBe(during + 2);
    // Nor does a member's level there.
    await announce("c-race//level/u-1");
    expect(await cache.get("race-user", read())).toBe(during + 2);
    await announce("c-race/p-1/changed/u-1");
    expect(await cache.get("race-user", read())).toBe(during + 3);
  });
});
