import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { account, user, userProfiles } from "../db/schema/index";
import { createProfileForUser, hashPassword } from "../lib/auth";

export const DEMO_PASSWORD = "hearth-demo";

export const DEMO_USERS = [
  {
    email: "owner@hearth.test",
    name: "Olivia Owner",
    username: "olivia",
    headline: "Creator and community host",
    bio: "I run communities about making things and learning together.",
    location: "Lisbon",
  },
  {
    email: "member@hearth.test",
    name: "Max Member",
    username: "max",
    headline: "Always learning",
    bio: "Member of a few communities; here for the courses and the people.",
    location: "Toronto",
  },
] as const;

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

/** Demo content on first start with an empty database. Later features add their part here. */
export async function seedDemo(db: Db, log: { info: (m: string) => void }): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(user);
  if (count > 0) return false;
  for (const demo of DEMO_USERS) {
    const id = await createConfirmedUser(db, { ...demo, password: DEMO_PASSWORD });
    await db
      .update(userProfiles)
      .set({ headline: demo.headline, bio: demo.bio, location: demo.location })
      .where(eq(userProfiles.userId, id));
  }
  log.info(`Demo accounts created: ${DEMO_USERS.map((u) => u.email).join(", ")} (password ${DEMO_PASSWORD})`);
  return true;
}
