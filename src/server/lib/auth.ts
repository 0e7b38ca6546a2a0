import { hash as argonHash, verify as argonVerify } from "@node-rs/argon2";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins";
import { createHash } from "node:crypto";
import { and, eq, like, ne, sql } from "drizzle-orm";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { stripHiddenCharacters } from "#shared/names";
import { displayNameSchema, signUpSchema } from "#shared/validation.schemas";
import type { Config } from "#server/config";
import type { Db } from "#server/db/client";
import * as schema from "#server/db/schema/index";
import { actionMail, type Mailer } from "./mail";
import { SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./session";

/** OWASP's argon2id minimum: m=19 MiB, t=2, p=1. */
const ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

const RESET_PREFIX = "reset-password:";
const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

export const hashPassword = (password: string) => argonHash(password, ARGON);
export const verifyPassword = ({ hash, password }: { hash: string; password: string }) =>
  argonVerify(hash, password).catch(() => false);

/**
 * Whether a stored hash is weaker than what Hearth writes now: not argon2id, or a lower memory,
 * time or parallelism cost (a hash written by an older version, or imported). Read from its PHC
 * string: `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`.
 */
export function isWeakerHash(hash: string): boolean {
  const m = /^\$(argon2(?:id|i|d))\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
  if (!m) return true;
  return (
    m[1] !== "argon2id" ||
    Number(m[2]) < ARGON.memoryCost ||
    Number(m[3]) < ARGON.timeCost ||
    Number(m[4]) < ARGON.parallelism
  );
}

/**
 * Verifies a password, and when it is right but its stored hash is weaker than today's (checklist
 * I6), stores a new hash of it: the only moment Hearth holds the password to hash it again. The
 * update names the old hash, so a password changed meanwhile is left alone.
 */
async function verifyAndUpgrade(db: Db, input: { hash: string; password: string }): Promise<boolean> {
  const ok = await verifyPassword(input);
  if (ok && isWeakerHash(input.hash)) {
    const fresh = await hashPassword(input.password);
    await db
      .update(schema.account)
      .set({ password: fresh, updatedAt: new Date() })
      .where(and(eq(schema.account.providerId, "credential"), eq(schema.account.password, input.hash)));
  }
  return ok;
}

export async function isUsernameTaken(db: Db, username: string, exceptUserId?: string): Promise<boolean> {
  const rows = await db
    .select({ userId: schema.userProfiles.userId })
    .from(schema.userProfiles)
    .where(sql`lower(${schema.userProfiles.username}) = lower(${username})`)
    .limit(1);
  return rows.length > 0 && rows[0].userId !== exceptUserId;
}

export function createAuth(opts: { config: Config; db: Db; mailer: Mailer }) {
  const { config, db, mailer } = opts;
  return betterAuth({
    appName: "Hearth",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
      },
      transaction: true,
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: LIMITS.passwordMin,
      maxPasswordLength: LIMITS.passwordMax,
      password: { hash: hashPassword, verify: (input) => verifyAndUpgrade(db, input) },
      resetPasswordTokenExpiresIn: 20 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url, token }) => {
        // Only the newest link works: earlier reset tokens of this user are revoked.
        await db
          .delete(schema.verification)
          .where(
            and(
              eq(schema.verification.value, user.id),
              like(schema.verification.identifier, `${RESET_PREFIX}%`),
              ne(schema.verification.identifier, `${RESET_PREFIX}${sha256(`reset-password:${token}`)}`),
            ),
          );
        await mailer.send(
          actionMail(
            user.email,
            "Reset your Hearth password",
            "Someone asked to reset the password of your Hearth account. The link works once, for 20 minutes.",
            "Reset your password",
            url,
            "If you did not ask for this, ignore this message: your password stays as it is.",
          ),
        );
      },
      // Sign-up answers the same whether or not the email is registered; the owner hears of the attempt.
      onExistingUserSignUp: async ({ user }) => {
        await mailer.send(
          actionMail(
            user.email,
            "Someone tried to sign up with your email",
            "Someone tried to create a Hearth account with this email address, which already has an account. If it was you, sign in instead, or reset your password.",
            "Sign in to Hearth",
            config.publicUrl,
          ),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 3600,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send(
          actionMail(
            user.email,
            "Confirm your email for Hearth",
            // No name here: whoever signs up writes it, for any address, before that address is confirmed,
            // so it must not carry their text (a link, a lure) into someone else's mailbox.
            "Welcome to Hearth! Confirm your email address to finish creating your account.",
            "Confirm your email",
            url,
          ),
        );
      },
    },
    verification: {
      storeIdentifier: {
        default: "hashed",
        // Reset tokens keep a readable prefix on their hash, so a new request can revoke the older ones.
        overrides: {
          "reset-password:": { hash: async (identifier: string) => `${RESET_PREFIX}${sha256(identifier)}` },
        },
      },
    },
    socialProviders: config.google
      ? {
          google: {
            clientId: config.google.clientId,
            clientSecret: config.google.clientSecret,
            prompt: "select_account",
          },
        }
      : undefined,
    account: {
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true },
    },
    session: { expiresIn: SESSION_EXPIRES_IN_S, updateAge: SESSION_UPDATE_AGE_S },
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "hearth",
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
      // The address Fastify settled on (request.ip, under TRUST_PROXY's hops or addresses), set by
      // the auth route over anything the client sent: never the client-written X-Forwarded-For.
      ipAddress: { ipAddressHeaders: ["x-hearth-client-ip"] },
    },
    telemetry: { enabled: false },
    plugins: [twoFactor({ issuer: "Hearth", skipVerificationOnEnable: false })],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Better Auth's own profile route changes the account's name: the same rules as the profile form.
        if (ctx.path === "/update-user" && ctx.body && typeof ctx.body === "object" && "name" in ctx.body) {
          const name = displayNameSchema.safeParse((ctx.body as { name: unknown }).name);
          if (!name.success) {
            throw new APIError("BAD_REQUEST", { message: name.error.issues[0].message, code: "VALIDATION" });
          }
          return { context: { body: { ...ctx.body, name: name.data } } };
        }
        if (ctx.path !== "/sign-up/email") return;
        const parsed = signUpSchema.safeParse(ctx.body);
        if (!parsed.success) {
          throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0].message, code: "VALIDATION" });
        }
        if (await isUsernameTaken(db, parsed.data.username)) {
          throw new APIError("BAD_REQUEST", { message: MSG.usernameTaken, code: "USERNAME_TAKEN" });
        }
        return { context: { body: { ...ctx.body, ...parsed.data } } };
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // A name from Google is not checked by the sign-up form: its hidden characters are dropped.
          before: async (user) => ({
            data: { ...user, name: stripHiddenCharacters(user.name ?? "").trim() || "Member" },
          }),
          after: async (user, ctx) => {
            const body = (ctx?.body ?? {}) as { username?: string };
            await createProfileForUser(db, user.id, user.name, body.username ?? null);
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Every account has a profile and notification settings. A Google sign-up gets a username made from its name. */
export async function createProfileForUser(db: Db, userId: string, name: string, username: string | null) {
  const insert = async (candidate: string) =>
    (
      await db
        .insert(schema.userProfiles)
        .values({ userId, username: candidate, fullName: name })
        .onConflictDoNothing()
        .returning({ id: schema.userProfiles.id })
    ).length > 0;

  if (username) {
    if (!(await insert(username))) {
      // The chosen username was taken between the check and the insert: refuse rather than rename.
      await db.delete(schema.user).where(eq(schema.user.id, userId));
      throw new APIError("BAD_REQUEST", { message: MSG.usernameTaken, code: "USERNAME_TAKEN" });
    }
  } else {
    // 24 characters leave room for "_" and a 5-digit suffix within the 30 allowed.
    const base = (
      name
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, "_")
        .replace(/^_+|_+$/g, "") || "member"
    )
      .slice(0, 24)
      .padEnd(3, "0");
    let created = false;
    for (let attempt = 0; attempt < 20 && !created; attempt++) {
      created = await insert(attempt === 0 ? base : `${base}_${Math.floor(Math.random() * 100000)}`);
    }
    if (!created) throw new Error("Could not find a free username");
  }
  await db.insert(schema.userNotificationSettings).values({ userId }).onConflictDoNothing();
}
