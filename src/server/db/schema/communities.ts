import { REPORT_LIMITS } from "#shared/reports";
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { DEFAULT_LEVEL_THRESHOLDS } from "#shared/levels";
import { JOIN_POLICIES, JOIN_REQUEST_LIMITS } from "#shared/membership";
import { COMMUNITY_ROLES } from "#shared/roles";
import { user } from "./auth";
import { createdAt, money, textRef, timestamps, ts, uuidPk, uuidRef } from "./columns";

export const communities = pgTable(
  "communities",
  {
    id: uuidPk(),
    name: varchar("name", { length: 30 }).notNull(),
    /** The name's confusables skeleton, as written and in lower case, set by a trigger (migration 0014). */
    nameKey: text("name_key"),
    nameKeyLower: text("name_key_lower"),
    slug: text("slug").notNull(),
    customSlug: text("custom_slug"),
    description: varchar("description", { length: 150 }).notNull().default(""),
    shortDescription: text("short_description").notNull().default(""),
    tagline: text("tagline").notNull().default(""),
    category: text("category"),
    type: text("type", { enum: ["free", "paid"] })
      .notNull()
      .default("free"),
    /** The lowest monthly price of a paid tier, in `currency` units, shown on cards ("$49/month"). */
    price: money("price").notNull().default(0),
    /** The currency of the community's prices (lower case, as Stripe writes it). */
    currency: varchar("currency", { length: 3 }).notNull().default("usd"),
    /** Days a failed renewal keeps paid access before it is removed (issue 18). */
    graceDays: smallint("grace_days").notNull().default(7),
    memberCount: integer("member_count").notNull().default(0),
    postCount: integer("post_count").notNull().default(0),
    iconUrl: text("icon_url"),
    logoUrl: text("logo_url"),
    coverUrl: text("cover_url"),
    imageUrl: text("image_url"),
    brandName: text("brand_name"),
    isFeatured: boolean("is_featured").notNull().default(false),
    rank: integer("rank"),
    creatorName: text("creator_name"),
    creatorImage: text("creator_image"),
    website: text("website"),
    visibility: text("visibility", { enum: ["public", "private"] })
      .notNull()
      .default("public"),
    inviteCode: text("invite_code").notNull(),
    inviteEnabled: boolean("invite_enabled").notNull().default(true),
    createdBy: text("created_by")
      .notNull()
      .references(() => user.id),
    showClassroom: boolean("show_classroom").notNull().default(true),
    showCalendar: boolean("show_calendar").notNull().default(true),
    showMap: boolean("show_map").notNull().default(true),
    showLeaderboards: boolean("show_leaderboards").notNull().default(true),
    showAbout: boolean("show_about").notNull().default(true),
    onboardingCompleted: boolean("onboarding_completed").notNull().default(false),
    onboardingTasksCompleted: text("onboarding_tasks_completed").array().notNull().default([]),
    moderationEnabled: boolean("moderation_enabled").notNull().default(false),
    rules: jsonb("rules").$type<string[]>().notNull().default([]),
    // Levels (issue 20, src/shared/levels.ts): names (null: the defaults), thresholds, bonus points
    // and the level posting needs. Database triggers read the thresholds to keep member_points.level.
    levelNames: text("level_names").array(),
    levelThresholds: integer("level_thresholds")
      .array()
      .notNull()
      .default(sql.raw(`'{${DEFAULT_LEVEL_THRESHOLDS.join(",")}}'::integer[]`)),
    pointsPerLesson: smallint("points_per_lesson").notNull().default(0),
    pointsPerEvent: smallint("points_per_event").notNull().default(0),
    minPostLevel: smallint("min_post_level").notNull().default(1),
    // Who may join and how (issue 20, src/shared/membership.ts).
    joinPolicy: text("join_policy", { enum: JOIN_POLICIES }).notNull().default("open"),
    requestQuestions: jsonb("request_questions").$type<string[]>().notNull().default([]),
    requestAskEmail: boolean("request_ask_email").notNull().default(false),
    autoApprove: boolean("auto_approve").notNull().default(false),
    /** A private community shown in the directory anyway (its content stays private). */
    listed: boolean("listed").notNull().default(false),
    requestCooldownDays: smallint("request_cooldown_days").notNull().default(JOIN_REQUEST_LIMITS.cooldownDaysDefault),
    /** Reports (issue 22): distinct reports after which a post or comment is hidden pending review. */
    reportHideThreshold: smallint("report_hide_threshold").notNull().default(REPORT_LIMITS.defaultHideThreshold),
    /** Messages (issue 22): the level a member needs here to start a conversation through this community. */
    minMessageLevel: smallint("min_message_level").notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("communities_slug_key").on(t.slug),
    uniqueIndex("communities_custom_slug_key").on(t.customSlug),
    uniqueIndex("communities_invite_code_key").on(t.inviteCode),
    // Directory (public communities, and private ones their owner lists): ordered by member count,
    // optionally within a category (keyset on id). Queries repeat the predicate to use them.
    index("communities_directory_idx")
      .on(t.memberCount.desc().nullsFirst(), t.id)
      .where(sql`(${t.visibility} = 'public' OR ${t.listed})`),
    index("communities_category_directory_idx")
      .on(t.category, t.memberCount.desc().nullsFirst(), t.id)
      .where(sql`(${t.visibility} = 'public' OR ${t.listed})`),
    // Keyword search over name and description (pg_trgm, created in migration 0002).
    index("communities_search_idx").using("gin", sql`(${t.name} || ' ' || ${t.description}) gin_trgm_ops`),
    index("communities_created_by_idx").on(t.createdBy),
    // Look-alike names (not unique: names shared before the rule stay).
    index("communities_name_key_idx").on(t.nameKey),
    index("communities_name_key_lower_idx").on(t.nameKeyLower),
  ],
);

export const communityMembers = pgTable(
  "community_members",
  {
    communityId: uuidRef("community_id", () => communities.id),
    userId: textRef("user_id", () => user.id),
    role: text("role", { enum: COMMUNITY_ROLES }).notNull().default("member"),
    joinedViaInvite: boolean("joined_via_invite").notNull().default(false),
    joinedAt: ts("joined_at").notNull().defaultNow(),
    lastActiveAt: ts("last_active_at"),
  },
  (t) => [
    primaryKey({ columns: [t.communityId, t.userId] }),
    index("community_members_user_idx").on(t.userId, t.joinedAt.desc().nullsFirst()),
    index("community_members_role_idx").on(t.communityId, t.role),
    index("community_members_active_idx").on(t.communityId, t.lastActiveAt.desc().nullsFirst()),
    // The members table, oldest first, paged by (joined_at, user_id).
    index("community_members_joined_idx").on(t.communityId, t.joinedAt, t.userId),
  ],
);

export const postCategories = pgTable(
  "post_categories",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    name: varchar("name", { length: 40 }).notNull(),
    emoji: varchar("emoji", { length: 16 }).notNull().default(""),
    orderIndex: smallint("order_index").notNull().default(0),
  },
  (t) => [index("post_categories_community_idx").on(t.communityId, t.orderIndex)],
);

/** Record of members a community banned (they cannot rejoin). */
export const communityBans = pgTable(
  "community_bans",
  {
    communityId: uuidRef("community_id", () => communities.id),
    userId: textRef("user_id", () => user.id),
    bannedBy: text("banned_by").references(() => user.id, { onDelete: "set null" }),
    reason: text("reason").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.communityId, t.userId] })],
);
