import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  communities,
  communityMembers,
  mediaFiles,
  postCategories,
  user,
  userNotificationSettings,
  userProfiles,
} from "#server/db/schema/index";
import type { Db, Tx } from "#server/db/client";
import type { Storage } from "#server/lib/storage";
import { ONBOARDING_TASKS, slugify } from "#shared/communities";
import type { CommunityRole } from "#shared/roles";
import { coverSvg, iconSvg, paletteFor, prng, renderCover, type Palette } from "./art";
import {
  CITIES,
  DEMO_COMMUNITIES,
  DEMO_CREATORS,
  FIRST_NAMES,
  HEADLINES,
  LAST_NAMES,
  type DemoAccount,
  type DemoCommunity,
} from "./content/communities.data";

/** The transaction the seed runs in (all of the demo content lands, or none of it). */
export type { Tx };

export type { DemoAccount, DemoCommunity } from "./content/communities.data";

/** Everyone in the demo besides the two accounts that can sign in: the creators, then generated people. */
export const DEMO_PEOPLE_COUNT = 1200;

export type Person = { id: string; name: string; username: string; headline: string; bio: string; location: string };

function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Unique names and usernames, the same ones every start (ids are fresh). */
export function demoPeople(count = DEMO_PEOPLE_COUNT): Person[] {
  const rand = prng(0x4ea27);
  const people: Person[] = DEMO_CREATORS.map((c) => ({ id: randomBytes(16).toString("hex"), ...c }));
  const used = new Set(people.map((p) => p.username));
  const pairs = shuffle(
    FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => [f, l] as const)),
    rand,
  );
  for (const [first, last] of pairs) {
    if (people.length >= count) break;
    const username = `${first}_${last}`.toLowerCase();
    if (used.has(username)) continue;
    used.add(username);
    people.push({
      id: randomBytes(16).toString("hex"),
      name: `${first} ${last}`,
      username,
      headline: rand() < 0.45 ? HEADLINES[Math.floor(rand() * HEADLINES.length)] : "",
      bio: "",
      location: rand() < 0.6 ? CITIES[Math.floor(rand() * CITIES.length)] : "",
    });
  }
  if (people.length < count) throw new Error(`Only ${people.length} demo names available`);
  return people;
}

export type CommunityArt = { icon: string; cover: Buffer } | null;

/** Icons and covers, rendered ahead of the transaction (covers are WebP encodes on the thread pool). */
export function renderCommunityArt(list: readonly DemoCommunity[] = DEMO_COMMUNITIES): Promise<CommunityArt[]> {
  return Promise.all(
    list.map(async (c, i) => {
      if (c.settingUp) return null;
      const palette: Palette = paletteFor(c.hue);
      const cover = await renderCover(coverSvg({ palette, pattern: c.pattern, seed: i + 1 }));
      return { icon: iconSvg({ name: c.name, palette, motif: c.motif }), cover };
    }),
  );
}

/**
 * Many rows in one statement with one array parameter per column (INSERT ... SELECT FROM unnest):
 * no parameter limit, and no per-row query building, however many rows.
 */
export async function insertMany(db: Db | Tx, table: PgTable, columns: [column: PgColumn, values: unknown[]][]) {
  const names = sql.join(
    columns.map(([column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const arrays = sql.join(
    columns.map(([column, values]) => sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`),
    sql`, `,
  );
  await db.execute(sql`insert into ${table} (${names}) select * from unnest(${arrays})`);
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How many admins and moderators a community of this size has (besides the owner). */
function staffFor(members: number): { admins: number; moderators: number } {
  if (members >= 1000) return { admins: 3, moderators: 4 };
  if (members >= 200) return { admins: 2, moderators: 3 };
  if (members >= 50) return { admins: 1, moderators: 2 };
  if (members >= 15) return { admins: 0, moderators: 1 };
  return { admins: 0, moderators: 0 };
}

/** Last activity: a few online right now (within the online window), many today or this month, some never. */
function lastActive(rand: () => number, joinedAt: Date, now: number): Date | null {
  const r = rand();
  let at: number;
  if (r < 0.05) at = now - rand() * 4 * MINUTE;
  else if (r < 0.25) at = now - rand() * DAY;
  else if (r < 0.85) at = now - rand() * 30 * DAY;
  else return null;
  return new Date(Math.max(at, joinedAt.getTime()));
}

export type MemberRow = {
  communityId: string;
  userId: string;
  role: CommunityRole;
  joinedViaInvite: boolean;
  joinedAt: Date;
  lastActiveAt: Date | null;
};

/** A demo community as seeded, for the content that goes into it (posts, likes, comments). */
export type SeededCommunity = {
  def: DemoCommunity;
  id: string;
  slug: string;
  createdAt: Date;
  ownerId: string;
  members: MemberRow[];
  categories: { id: string; name: string }[];
};

export type CommunitySeedResult = {
  people: number;
  communities: number;
  memberships: number;
  seeded: SeededCommunity[];
  /** Everyone besides the demo accounts (ids as inserted). */
  everyone: Person[];
};

function insertMembers(db: Db | Tx, rows: MemberRow[]) {
  return insertMany(db, communityMembers, [
    [communityMembers.communityId, rows.map((m) => m.communityId)],
    [communityMembers.userId, rows.map((m) => m.userId)],
    [communityMembers.role, rows.map((m) => m.role)],
    [communityMembers.joinedViaInvite, rows.map((m) => m.joinedViaInvite)],
    [communityMembers.joinedAt, rows.map((m) => m.joinedAt)],
    [communityMembers.lastActiveAt, rows.map((m) => m.lastActiveAt)],
  ]);
}

/**
 * The demo directory: people, communities with their art, post categories, and each community's
 * members (the owners and the demo accounts among them). Bulk inserts only: a
 * handful of statements however many rows. member_count is left to the database trigger.
 */
export async function seedCommunities(input: {
  tx: Tx;
  storage: Storage;
  /** Rendered while the rows go in; the files are written before the transaction commits. */
  art: Promise<CommunityArt[]>;
  accounts: Record<DemoAccount, { id: string; name: string }>;
  now?: Date;
}): Promise<CommunitySeedResult> {
  const { tx, storage, art, accounts } = input;
  const now = (input.now ?? new Date()).getTime();
  const rand = prng(0xc0ffee);
  const people = demoPeople();

  // Creators signed up before their oldest community (at most 900 days old); everyone else any time.
  const joinedHearth = people.map(
    (_, i) => new Date(now - (i < DEMO_CREATORS.length ? 1000 : 30 + rand() * 900) * DAY),
  );
  const signedUpAt = new Map(people.map((p, i) => [p.id, joinedHearth[i].getTime()]));
  await insertMany(tx, user, [
    [user.id, people.map((p) => p.id)],
    [user.name, people.map((p) => p.name)],
    [user.email, people.map((p) => `${p.username}@people.hearth.test`)],
    [user.emailVerified, people.map(() => true)],
    [user.createdAt, joinedHearth],
    [user.updatedAt, joinedHearth],
  ]);
  await insertMany(tx, userProfiles, [
    [userProfiles.userId, people.map((p) => p.id)],
    [userProfiles.username, people.map((p) => p.username)],
    [userProfiles.fullName, people.map((p) => p.name)],
    [userProfiles.headline, people.map((p) => p.headline)],
    [userProfiles.bio, people.map((p) => p.bio)],
    [userProfiles.location, people.map((p) => p.location)],
    [userProfiles.createdAt, joinedHearth],
  ]);
  await insertMany(tx, userNotificationSettings, [[userNotificationSettings.userId, people.map((p) => p.id)]]);

  const byUsername = new Map(people.map((p) => [p.username, p]));
  const ownerOf = (c: DemoCommunity) => {
    if (c.owner === "owner" || c.owner === "member") return accounts[c.owner];
    const p = byUsername.get(c.owner);
    if (!p) throw new Error(`Unknown demo creator ${c.owner}`);
    return p;
  };

  const communityRows: (typeof communities.$inferInsert)[] = [];
  const membersByCommunity: MemberRow[][] = [];
  const categoryRows: (typeof postCategories.$inferInsert)[] = [];
  const files: { index: number; iconKey: string; coverKey: string }[] = [];
  const allTasks = ONBOARDING_TASKS.map((t) => t.id);
  const seeded: SeededCommunity[] = [];

  DEMO_COMMUNITIES.forEach((c, index) => {
    const id = randomUUID();
    const owner = ownerOf(c);
    const createdAt = new Date(now - c.ageDays * DAY);
    let iconUrl: string | null = null;
    let coverUrl: string | null = null;
    if (!c.settingUp) {
      const iconKey = `community-assets/${id}/icon-${now}.svg`;
      const coverKey = `community-assets/${id}/cover-${now}.webp`;
      files.push({ index, iconKey, coverKey });
      iconUrl = storage.publicUrl(iconKey);
      coverUrl = storage.publicUrl(coverKey);
    }
    communityRows.push({
      id,
      name: c.name,
      slug: slugify(c.name),
      description: c.description,
      shortDescription: c.shortDescription ?? "",
      tagline: c.tagline,
      category: c.category,
      type: c.price ? "paid" : "free",
      price: c.price ?? 0,
      iconUrl,
      coverUrl,
      imageUrl: coverUrl,
      isFeatured: c.featured ?? false,
      creatorName: owner.name,
      website: c.website ?? null,
      visibility: c.visibility ?? "public",
      inviteCode: randomBytes(16).toString("base64url"),
      createdBy: owner.id,
      onboardingCompleted: !c.settingUp,
      onboardingTasksCompleted: c.settingUp ? ["description"] : allTasks,
      moderationEnabled: c.moderation ?? false,
      rules: c.rules,
      joinPolicy: c.requests ? "request" : c.visibility === "private" ? "invite" : "open",
      requestQuestions: c.requests?.questions ?? [],
      createdAt,
      updatedAt: createdAt,
    });
    const categories = c.postCategories.map(([name, emoji], orderIndex) => {
      const row = { id: randomUUID(), communityId: id, name, emoji, orderIndex };
      categoryRows.push(row);
      return { id: row.id, name };
    });

    const span = Math.max(now - MINUTE * 60 - createdAt.getTime(), MINUTE);
    // Nobody joins before the community or their own account existed.
    const joined = (since = 0) => new Date(Math.max(createdAt.getTime() + rand() * span, since));
    const privateCommunity = c.visibility === "private";
    const memberRows: MemberRow[] = [];
    membersByCommunity.push(memberRows);
    seeded.push({ def: c, id, slug: slugify(c.name), createdAt, ownerId: owner.id, members: memberRows, categories });
    memberRows.push({
      communityId: id,
      userId: owner.id,
      role: "owner",
      joinedViaInvite: false,
      joinedAt: createdAt,
      lastActiveAt: new Date(now - rand() * 3 * MINUTE),
    });
    for (const s of c.specials ?? []) {
      memberRows.push({
        communityId: id,
        userId: accounts[s.who].id,
        role: s.role,
        joinedViaInvite: s.viaInvite ?? privateCommunity,
        joinedAt: joined(),
        lastActiveAt: new Date(now - rand() * 3 * MINUTE),
      });
    }
    const others = c.members - 1 - (c.specials?.length ?? 0);
    const candidates = shuffle(
      people.filter((p) => p.id !== owner.id),
      rand,
    ).slice(0, others);
    if (candidates.length < others) throw new Error(`Not enough demo people for ${c.name}`);
    const staff = staffFor(c.members);
    const moderators = staff.moderators - (c.specials ?? []).filter((s) => s.role === "moderator").length;
    candidates.forEach((p, i) => {
      const role: CommunityRole = i < staff.admins ? "admin" : i < staff.admins + moderators ? "moderator" : "member";
      const joinedAt = joined(signedUpAt.get(p.id));
      memberRows.push({
        communityId: id,
        userId: p.id,
        role,
        // Members of a private community can only have come in with an invite.
        joinedViaInvite: privateCommunity || rand() < 0.06,
        joinedAt,
        lastActiveAt: lastActive(rand, joinedAt, now),
      });
    });
  });

  await tx.insert(communities).values(communityRows);
  // One statement: the member_count trigger runs once per statement (migration 0003).
  const memberRows = membersByCommunity.flat();
  await insertMembers(tx, memberRows);
  await tx.insert(postCategories).values(categoryRows);

  const pictures = await art;
  await Promise.all(
    files.flatMap(({ index, iconKey, coverKey }) => {
      const picture = pictures[index];
      if (!picture) throw new Error(`No artwork for ${DEMO_COMMUNITIES[index].name}`);
      return [
        storage.put(iconKey, Buffer.from(picture.icon, "utf8"), "image/svg+xml"),
        storage.put(coverKey, picture.cover, "image/webp"),
      ];
    }),
  );
  // Recorded like uploads: only recorded files are served.
  if (files.length) {
    await tx.insert(mediaFiles).values(
      files.flatMap(({ index, iconKey, coverKey }) => {
        const communityId = communityRows[index].id!;
        const ownerId = communityRows[index].createdBy ?? null;
        return [
          {
            key: iconKey,
            ownerId,
            communityId,
            purpose: "icon" as const,
            contentType: "image/svg+xml",
            size: Buffer.byteLength(pictures[index]!.icon),
          },
          {
            key: coverKey,
            ownerId,
            communityId,
            purpose: "cover" as const,
            contentType: "image/webp",
            size: pictures[index]!.cover.length,
          },
        ];
      }),
    );
  }
  return {
    people: people.length,
    communities: communityRows.length,
    memberships: memberRows.length,
    seeded,
    everyone: people,
  };
}
