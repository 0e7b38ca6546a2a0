import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { account, user, userNotificationSettings, userProfiles } from "#server/db/schema/index";
import { createProfileForUser, hashPassword } from "#server/lib/auth";
import type { Storage } from "#server/lib/storage";
import { renderCommunityArt, seedCommunities, type DemoAccount, type Tx } from "./communities";
import { seedCourses } from "./courses";
import { seedEvents } from "./events";
import { seedLevels } from "./levels";
import { seedMessages } from "./messages";
import { seedPayments } from "./payments";
import { DEMO_PASSWORD, DEMO_USERS } from "./content/accounts.data";
import { seedNotifications } from "./notifications";
import { seedPosts } from "./posts";
import { seedReports } from "./reports";
import { seedSearchDemo } from "./search";

/** A confirmed account with a password and a profile, made directly (no confirmation email). */
export async function createConfirmedUser(
  db: Db,
  input: { email: string; name: string; username: string; password: string },
): Promise<string> {
  const id = randomBytes(16).toString("hex");
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.insert(user).values({ id, email: input.email, name: input.name, emailVerified: true });
    await tx.insert(account).values({
      id: randomBytes(16).toString("hex"),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: passwordHash,
    });
  });
  await createProfileForUser(db, id, input.name, input.username);
  return id;
}

/** Any number: it only has to be the same in every process that might seed the same database. */
const SEED_LOCK = 0x4ea27_5eed;

const hasUsers = async (db: Db | Tx) =>
  (await db.select({ count: sql<number>`count(*)::int` }).from(user))[0].count > 0;

/**
 * The two accounts that can sign in (the rest of the demo's people cannot: they have no credential).
 * Their users and profiles go in first; their passwords last (`addCredentials`), so the slow
 * password hashing runs while everything else is inserted.
 */
async function insertDemoAccounts(tx: Tx) {
  // Older than every demo community: the owner created some of them and the member joined others.
  const createdAt = new Date(Date.now() - 1000 * 24 * 60 * 60 * 1000);
  const rows = DEMO_USERS.map((demo) => ({ ...demo, id: randomBytes(16).toString("hex") }));
  await tx.insert(user).values(
    rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      emailVerified: true,
      createdAt,
      updatedAt: createdAt,
    })),
  );
  await tx.insert(userProfiles).values(
    rows.map((r) => ({
      userId: r.id,
      username: r.username,
      fullName: r.name,
      headline: r.headline,
      bio: r.bio,
      location: r.location,
      createdAt,
    })),
  );
  await tx.insert(userNotificationSettings).values(rows.map((r) => ({ userId: r.id })));
  const accounts = Object.fromEntries(rows.map((r) => [r.key, { id: r.id, name: r.name }])) as Record<
    DemoAccount,
    { id: string; name: string }
  >;
  const addCredentials = (hashes: string[]) =>
    tx.insert(account).values(
      rows.map((r, i) => ({
        id: randomBytes(16).toString("hex"),
        accountId: r.id,
        providerId: "credential",
        userId: r.id,
        password: hashes[i],
      })),
    );
  return { accounts, addCredentials };
}

/**
 * Demo content on first start with an empty database: the two demo accounts, the people of the
 * demo directory, its communities, their posts with likes, saves, poll votes and comments, and
 * their courses with lessons, lesson videos and the member's progress, members spread over the
 * levels and a community's pending requests to join, in one transaction: a seed
 * that fails leaves nothing behind and the next start tries again; an advisory lock keeps two
 * processes starting together from both seeding.
 */
export async function seedDemo(input: {
  db: Db;
  storage: Storage;
  log: { info: (m: string) => void };
}): Promise<boolean> {
  const { db, storage, log } = input;
  if (await hasUsers(db)) return false;
  const started = performance.now();
  // The covers (SVG renders and WebP encodes on the thread pool) are drawn while the rows go in.
  const art = renderCommunityArt();
  art.catch(() => {}); // awaited in the transaction; this only keeps an early rollback from leaving it unhandled
  // Hashed while the rows go in (about half a second); the credentials are inserted last.
  const hashes = Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  hashes.catch(() => {}); // awaited in the transaction, as above
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await hasUsers(tx)) return null;
    const { accounts, addCredentials } = await insertDemoAccounts(tx);
    const now = Date.now();
    const directory = await seedCommunities({ tx, storage, art, accounts, now: new Date(now) });
    const content = await seedPosts({
      tx,
      storage,
      seeded: directory.seeded,
      people: directory.everyone,
      accounts,
      now,
    });
    const levels = await seedLevels({
      tx,
      seeded: directory.seeded,
      people: directory.everyone,
      accounts,
      now,
    });
    const learning = await seedCourses({ tx, storage, seeded: directory.seeded, accounts, now });
    const money = await seedPayments({ tx, seeded: directory.seeded, now });
    const calendar = await seedEvents({ tx, seeded: directory.seeded, accounts, now });
    const notifications = await seedNotifications({ tx, accounts });
    await seedSearchDemo({ tx, seeded: directory.seeded, now });
    await seedReports({ tx, seeded: directory.seeded, accounts, now });
    await seedMessages({ tx, seeded: directory.seeded, accounts, now });
    await addCredentials(await hashes);
    return { ...directory, content, levels, learning, notifications, money, calendar };
  });
  if (!result) return false;
  const ms = Math.round(performance.now() - started);
  log.info(
    `Demo content created in ${ms} ms: accounts ${DEMO_USERS.map((u) => u.email).join(", ")} (password ${DEMO_PASSWORD}); ` +
      `${result.communities} communities, ${result.people} people, ${result.memberships} memberships; ` +
      `${result.content.posts} posts, ${result.content.comments} comments, ${result.content.likes} likes, ` +
      `${result.content.votes} poll votes, ${result.content.saves} saves; ` +
      `${result.levels.likes} likes lifting members up the levels, ${result.levels.requests} pending requests to join; ` +
      `${result.learning.courses} courses with ${result.learning.lessons} lessons (${result.learning.videos} with the demo video), ` +
      `${result.learning.completions} lessons completed; ${result.notifications} notifications; ` +
      `${result.money.tiers} tiers, ${result.money.subscribers} paying members, ${result.money.payments} payments; ` +
      `${result.calendar.series} event series with ${result.calendar.occurrences} occurrences, ${result.calendar.rsvps} RSVPs`,
  );
  return true;
}
