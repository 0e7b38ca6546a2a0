import { sql } from "drizzle-orm";
import { boolean, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { createdAt, timestamps, ts, updatedAt, uuidPk } from "./columns";
import { communities } from "./communities";

export const userProfiles = pgTable(
  "user_profiles",
  {
    id: uuidPk(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: "cascade" }),
    username: varchar("username", { length: 30 }).notNull(),
    fullName: text("full_name").notNull().default(""),
    avatarUrl: text("avatar_url"),
    headline: varchar("headline", { length: 160 }).notNull().default(""),
    bio: text("bio").notNull().default(""),
    location: text("location").notNull().default(""),
    timezone: text("timezone").notNull().default("UTC"),
    language: text("language").notNull().default("en"),
    websiteUrl: text("website_url").notNull().default(""),
    twitterUrl: text("twitter_url").notNull().default(""),
    facebookUrl: text("facebook_url").notNull().default(""),
    instagramUrl: text("instagram_url").notNull().default(""),
    linkedinUrl: text("linkedin_url").notNull().default(""),
    emailPublic: boolean("email_public").notNull().default(false),
    allowMessages: boolean("allow_messages").notNull().default(true),
    showInDirectory: boolean("show_in_directory").notNull().default(true),
    lastSeenAt: ts("last_seen_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("user_profiles_username_key").on(sql`lower(${t.username})`)],
);

export type CommunityNotificationFlags = {
  posts: boolean;
  comments: boolean;
  announcements: boolean;
  events: boolean;
};

export const userNotificationSettings = pgTable("user_notification_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  globalEnabled: boolean("global_enabled").notNull().default(true),
  emailEnabled: boolean("email_enabled").notNull().default(true),
  inAppEnabled: boolean("in_app_enabled").notNull().default(true),
  pushEnabled: boolean("push_enabled").notNull().default(false),
  communitySettings: jsonb("community_settings")
    .$type<Record<string, CommunityNotificationFlags>>()
    .notNull()
    .default({}),
  /** When the pending email digest is due (a job is queued for then); null when none is. */
  digestDueAt: ts("digest_due_at"),
  lastDigestAt: ts("last_digest_at"),
  updatedAt: updatedAt(),
});

/** Friendly names for second factors (Better Auth's two_factor row holds the secret). */
export const authFactors = pgTable("auth_factors", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  friendlyName: varchar("friendly_name", { length: 60 }).notNull().default("Authenticator app"),
  factorType: text("factor_type", { enum: ["totp", "phone"] })
    .notNull()
    .default("totp"),
  createdAt: createdAt(),
});

/** The creator plan chosen in the sign-up funnel (simulated billing). */
export const creatorPlans = pgTable("creator_plans", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  plan: text("plan", { enum: ["monthly", "annual"] }).notNull(),
  trialEndsAt: ts("trial_ends_at").notNull(),
  /** The paid community the sign-up created, and the page's id for that purchase (a repeat returns it). */
  communityId: uuid("community_id").references(() => communities.id, { onDelete: "set null" }),
  requestId: uuid("request_id"),
  createdAt: createdAt(),
});
