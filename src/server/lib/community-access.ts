import { randomBytes } from "node:crypto";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { can, isRole, type CommunityRole, type Permission } from "#shared/roles";
import type { AppContext } from "#server/context";
import type { Db, Queryable } from "#server/db/client";
import { communities, communityMembers } from "#server/db/schema/index";
import { AppError } from "./errors";
import { communityAdminsSql, notifyAll } from "./notifications";
import { publishMembershipChange } from "./realtime";

export type CommunityRow = typeof communities.$inferSelect;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

export const communityNotFound = () => new AppError("NOT_FOUND", MSG.communityNotFoundTitle);

/** Which community an id, slug or custom slug names (lower-cased, as they are stored). */
const communityKey = (idOrSlug: string) => {
  const key = idOrSlug.toLowerCase();
  return isUuid(key) ? eq(communities.id, key) : or(eq(communities.slug, key), eq(communities.customSlug, key));
};

/** A community by id, slug or custom slug. */
export async function findCommunityRow(db: Db, idOrSlug: string): Promise<CommunityRow | null> {
  const [row] = await db.select().from(communities).where(communityKey(idOrSlug)).limit(1);
  return row ?? null;
}

/** A membership row's role, or null without a row (or with a value no role names). */
const roleOf = (role: string | null | undefined): CommunityRole | null => (role && isRole(role) ? role : null);

/** The user's role in the community, or null when not a member (or signed out). */
export async function roleIn(db: Queryable, communityId: string, userId: string | null | undefined) {
  if (!userId) return null;
  const [row] = await db
    .select({ role: communityMembers.role })
    .from(communityMembers)
    .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.userId, userId)));
  return roleOf(row?.role);
}

export type CommunityAccess = { community: CommunityRow; role: CommunityRole | null };

/**
 * The first line of every community service: the community and the caller's role. A private
 * community is invisible to non-members: `gate` answers with the private gate (the community page
 * itself), anything else answers exactly like a community that does not exist.
 */
export async function requireCommunity(input: {
  db: Db;
  idOrSlug: string;
  userId: string | null | undefined;
  privateAs?: "gate" | "not_found";
}): Promise<CommunityAccess> {
  if (!input.userId) {
    const community = await findCommunityRow(input.db, input.idOrSlug);
    if (!community) throw communityNotFound();
    return checkCommunityAccess(community, null, input.privateAs);
  }
  // Signed in: the community and the caller's membership in one statement.
  const [row] = await input.db
    .select({ community: communities, role: communityMembers.role })
    .from(communities)
    .leftJoin(
      communityMembers,
      and(eq(communityMembers.communityId, communities.id), eq(communityMembers.userId, input.userId)),
    )
    .where(communityKey(input.idOrSlug))
    .limit(1);
  if (!row) throw communityNotFound();
  return checkCommunityAccess(row.community, roleOf(row.role), input.privateAs);
}

/** The access rule, once the community and the caller's role are known (requireCommunity's second half). */
export function checkCommunityAccess<C extends { visibility: string }>(
  community: C,
  role: CommunityRole | null,
  privateAs?: "gate" | "not_found",
): { community: C; role: CommunityRole | null } {
  if (community.visibility === "private" && !role) {
    if (privateAs === "gate") throw new AppError("PRIVATE_COMMUNITY", MSG.privateCommunityBody);
    throw communityNotFound();
  }
  return { community, role };
}

/**
 * A community by id, slug or custom slug, kept in the public cache for the hot reads (the feed, the
 * month grid, the leaderboard): any change to the community drops it in every process, so only its
 * counters (member_count, post_count) may be up to the cache's time to live old. Callers that
 * decide from counters read findCommunityRow.
 */
export async function findCommunityCached(
  ctx: Pick<AppContext, "db" | "publicCache">,
  idOrSlug: string,
): Promise<CommunityRow> {
  // Read once for every request that asks while it is read.
  return ctx.publicCache.getOrCompute(`community-row:${idOrSlug.toLowerCase()}`, async () => {
    const row = await findCommunityRow(ctx.db, idOrSlug);
    if (!row) throw communityNotFound();
    return row;
  });
}

/**
 * requireCommunity for the hot reads: the community from the public cache and the caller's role
 * from the member cache (memberRole), with the same access rule.
 */
export async function requireCommunityCached(
  ctx: Pick<AppContext, "db" | "pool" | "publicCache" | "memberCache">,
  idOrSlug: string,
  userId: string | null | undefined,
): Promise<CommunityAccess> {
  const community = await findCommunityCached(ctx, idOrSlug);
  if (!userId) return checkCommunityAccess(community, null);
  return checkCommunityAccess(community, await memberRole(ctx, community.id, userId));
}

/**
 * The scope of one member's entries in the member cache: migration 0028 announces it on
 * hearth_members whenever their membership, role, points or level change, and every process drops
 * what it kept under it.
 */
export const memberScope = (communityId: string, userId: string) => `${communityId}.${userId}`;

/**
 * A user's role in a community (null: not a member), kept in the member cache: read once (a
 * prepared statement), then served with no statement until the database announces a change to that
 * membership (joining, leaving, removal, a ban, a new role), which drops it in every process. While
 * the listening connection is down nothing is kept, as in every cache.
 */
export function memberRole(
  ctx: Pick<AppContext, "pool" | "memberCache">,
  communityId: string,
  userId: string,
  /** Reads the role in a statement of the caller's that needs making anyway (the feed's first page). */
  read?: () => Promise<string | null | undefined>,
): Promise<CommunityRole | null> {
  return ctx.memberCache.getOrCompute(`${memberScope(communityId, userId)}:role`, async () => {
    const role = read
      ? await read()
      : (
          await ctx.pool.query<{ role: string }>({
            name: "community_role",
            text: ROLE_SQL,
            values: [communityId, userId],
          })
        ).rows[0]?.role;
    return isRole(role) ? role : null;
  });
}

/**
 * Drops members' cached role and standing in this process at once, after the commit that changed
 * them, with their unread notification count (which depends on what they may see), so the next
 * request here reads the change; other processes drop them when the database's announcement
 * arrives (migration 0028), moments later.
 */
export function forgetMembers(
  ctx: Pick<AppContext, "memberCache" | "unreadCache">,
  communityId: string,
  userIds: readonly string[],
) {
  for (const id of userIds) {
    ctx.memberCache.clearScope(memberScope(communityId, id));
    ctx.unreadCache.forgetUser(id);
  }
}

/** A user's role in a community ($1 community, $2 user), as a prepared statement's text. */
const ROLE_SQL = "SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2";

/**
 * The community a manager works on: one they may see (a private one is not found by outsiders) and
 * whose role holds the permission ('Insufficient permissions' otherwise).
 */
export async function requireCommunityPermission(db: Db, idOrSlug: string, userId: string, permission: Permission) {
  const { community, role } = await requireCommunity({ db, idOrSlug, userId, privateAs: "not_found" });
  requirePermission(role, permission);
  return community;
}

/** Throws 'Insufficient permissions' (or the given message) unless the role holds the permission. */
export function requirePermission(role: CommunityRole | null, permission: Permission, message?: string) {
  if (!can(role, permission)) throw new AppError("FORBIDDEN", message ?? MSG.insufficientPermissions);
}

/**
 * Adds a task to the community's onboarding list (once) and marks onboarding complete when every
 * task is done. Runs inside the caller's transaction. A task already done leaves the community's
 * row alone (not even locked), so an owner's every post does not write it.
 */
export async function completeOnboardingTask(
  db: Queryable,
  communityId: string,
  task: string,
  allTasks: readonly string[],
) {
  await db.execute(sql`
    UPDATE communities
       SET onboarding_tasks_completed = array_append(onboarding_tasks_completed, ${task}),
           onboarding_completed = onboarding_completed OR (
             SELECT bool_and(t = ANY(array_append(onboarding_tasks_completed, ${task})))
               FROM unnest(${sql.raw(`ARRAY[${allTasks.map((t) => `'${t.replace(/'/g, "")}'`).join(",")}]::text[]`)}) AS t),
           updated_at = now()
     WHERE id = ${communityId} AND NOT (${task} = ANY(onboarding_tasks_completed))`);
}

type AddMemberInput = { community: { id: string }; userId: string; viaInvite?: boolean };

/** Whether the user is banned from the community: ids as values, or as columns of a row set (SQL). */
const bannedSql = (communityId: string | SQL, userId: string | SQL) => sql`
  EXISTS (SELECT 1 FROM community_bans b
           WHERE b.community_id = ${typeof communityId === "string" ? sql`${communityId}::uuid` : communityId}
             AND b.user_id = ${userId})`;

export async function isBanned(db: Queryable, communityId: string, userId: string) {
  const res = await db.execute<{ banned: boolean }>(sql`SELECT ${bannedSql(communityId, userId)} AS banned`);
  return res.rows[0].banned;
}

/** What new members set off: their open pages learn it, the owners and admins hear of each. */
async function announceJoins(db: Queryable, joined: { input: AddMemberInput; admins: string[] }[]) {
  await publishMembershipChange(
    db,
    joined.map((j) => j.input.userId),
  );
  await notifyAll(
    db,
    joined.map(({ input, admins }) => ({
      recipients: admins,
      actorId: input.userId,
      communityId: input.community.id,
      type: "community_join",
      title: input.viaInvite ? "{actor} joined through an invite" : "{actor} joined your community",
      body: "Say hello and help them get started.",
    })),
  );
}

/**
 * Inserts the rows (role member) of `rows`, a row set with columns c (community), u (user) and via
 * (joined through an invite), except the banned and those already in; returns the added user ids.
 */
const insertMembersSql = (rows: SQL) => sql`
  INSERT INTO community_members (community_id, user_id, role, joined_via_invite, last_active_at)
  SELECT v.c, v.u, 'member', v.via, now() FROM ${rows}
   WHERE NOT ${bannedSql(sql`v.c`, sql`v.u`)}
  ON CONFLICT DO NOTHING
  RETURNING user_id`;

/**
 * The member's row (role member) unless banned or already in, and the community's admins, in one
 * statement. member_count moves with the row (a trigger), which locks the community's row until
 * the caller commits.
 */
async function insertMember(db: Queryable, input: AddMemberInput) {
  const res = await db.execute<{ added: boolean; admins: string[] }>(sql`
    WITH ins AS (${insertMembersSql(
      sql`(SELECT ${input.community.id}::uuid AS c, ${input.userId}::text AS u, ${input.viaInvite ?? false}::boolean AS via) v`,
    )})
    SELECT EXISTS (SELECT 1 FROM ins) AS added, ${communityAdminsSql(input.community.id)} AS admins`);
  return res.rows[0];
}

/**
 * Adds the user as a member (role member) unless they already are one; concurrent joins keep
 * member_count exact (a trigger). A banned user is refused. Returns whether a row was added.
 */
export async function addMember(db: Queryable, input: AddMemberInput): Promise<boolean> {
  const { added, admins } = await insertMember(db, input);
  if (!added) {
    // The ban is read by name only when nothing was added (a rare path).
    if (await isBanned(db, input.community.id, input.userId)) throw new AppError("FORBIDDEN", MSG.bannedFromCommunity);
    return false;
  }
  await announceJoins(db, [{ input, admins }]);
  return true;
}

/**
 * addMember for callers whose transaction is retried whole (payment jobs), for one member or many
 * (a batch of payment events), where a banned user is passed over, in two steps: the checks and the
 * announcements now (one statement checks them all, one tells their open pages, one tells their
 * admins of each), and the answered insert of every new member's row, in one statement, for the
 * caller to run last, just before its commit. Adding rows locks the community's row (member_count, a
 * statement trigger run once for them all) until the commit, and every other purchase in that
 * community waits for that row, so the wait lasts as little as it can. Another add of one of them in
 * between (a join racing the job) fails the transaction, for the retry to find the member. Null
 * when there is no one to add.
 */
export async function announceMembers(db: Queryable, inputs: AddMemberInput[]): Promise<(() => Promise<void>) | null> {
  const key = (i: AddMemberInput) => `${i.community.id}|${i.userId}`;
  const unique = [...new Map(inputs.map((i) => [key(i), i])).values()];
  if (unique.length === 0) return null;
  const rowsOf = (list: AddMemberInput[]) => sql`
    unnest(${sql.param(list.map((i) => i.community.id))}::uuid[], ${sql.param(list.map((i) => i.userId))}::text[],
           ${sql.param(list.map((i) => i.viaInvite ?? false))}::boolean[]) AS v(c, u, via)`;
  const state = new Map(
    (
      await db.execute<{ c: string; u: string; present: boolean; admins: string[] }>(sql`
        SELECT v.c, v.u,
               EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = v.c AND m.user_id = v.u)
            OR ${bannedSql(sql`v.c`, sql`v.u`)} AS present,
               ${communityAdminsSql(sql`v.c`)} AS admins
          FROM ${rowsOf(unique)}`)
    ).rows.map((r) => [`${r.c}|${r.u}`, r]),
  );
  const fresh = unique.filter((i) => state.get(key(i))?.present === false);
  if (fresh.length === 0) return null;
  await announceJoins(
    db,
    fresh.map((input) => ({ input, admins: state.get(key(input))!.admins })),
  );
  return async () => {
    const added = await db.execute(insertMembersSql(rowsOf(fresh)));
    if (added.rows.length !== fresh.length)
      throw new Error("the membership changed while it was being added (retried)");
  };
}

export const newInviteCode = () => randomBytes(16).toString("base64url");

export const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === "23505" || (err as { cause?: { code?: string } }).cause?.code === "23505";

/**
 * Inserts a community with the viewer as its owner (SPEC §6), inside the caller's transaction. The
 * slug must be free; a race answers a unique violation (see isUniqueViolation) for the caller to retry.
 */
export async function insertOwnedCommunity(
  tx: Queryable,
  viewer: { id: string; name: string; profile: Record<string, unknown> | null },
  input: { name: string; slug: string; type?: "free" | "paid"; price?: number },
): Promise<{ id: string; slug: string }> {
  const profile = viewer.profile as { full_name?: string; avatar_url?: string | null } | null;
  const [row] = await tx
    .insert(communities)
    .values({
      name: input.name,
      slug: input.slug,
      type: input.type ?? "free",
      price: input.price ?? 0,
      inviteCode: newInviteCode(),
      createdBy: viewer.id,
      creatorName: profile?.full_name || viewer.name,
      creatorImage: profile?.avatar_url ?? null,
    })
    .returning({ id: communities.id, slug: communities.slug });
  await tx
    .insert(communityMembers)
    .values({ communityId: row.id, userId: viewer.id, role: "owner", lastActiveAt: new Date() });
  await publishMembershipChange(tx, [viewer.id]);
  return row;
}
