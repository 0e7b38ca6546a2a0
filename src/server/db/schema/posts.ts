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
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { communities, postCategories } from "./communities";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export type MediaItem = {
  type: "image" | "video" | "document";
  url: string;
  thumbnail?: string;
  medium?: string;
  duration?: number;
};
export type PollOption = { id: string; text: string; votes: number };
export type PollData = {
  options: PollOption[];
  duration_hours: number;
  expires_at: string | null;
  total_votes: number;
};
export type LinkPreview = { url: string; title: string; description: string; image: string | null };

export const posts = pgTable(
  "posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    communityId: uuid("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    authorId: text("author_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id").references(() => postCategories.id, { onDelete: "set null" }),
    content: text("content").notNull().default(""),
    type: text("type", { enum: ["text", "image", "video", "poll", "link"] })
      .notNull()
      .default("text"),
    isApproved: boolean("is_approved").notNull().default(true),
    visibility: text("visibility", { enum: ["public", "members", "admins"] })
      .notNull()
      .default("public"),
    isEdited: boolean("is_edited").notNull().default(false),
    isPinned: boolean("is_pinned").notNull().default(false),
    likesCount: integer("likes_count").notNull().default(0),
    commentsCount: integer("comments_count").notNull().default(0),
    shareCount: integer("share_count").notNull().default(0),
    mediaUrls: jsonb("media_urls").$type<MediaItem[]>().notNull().default([]),
    pollData: jsonb("poll_data").$type<PollData | null>(),
    linkPreview: jsonb("link_preview").$type<LinkPreview | null>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    // Feed: newest first with pinned on top, keyset on (created_at, id).
    index("posts_feed_idx").on(
      t.communityId,
      t.isPinned.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("posts_category_feed_idx").on(
      t.communityId,
      t.categoryId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("posts_author_idx").on(t.authorId, t.createdAt.desc().nullsFirst()),
    // Pending approvals of a community, oldest first.
    index("posts_pending_idx")
      .on(t.communityId, t.createdAt)
      .where(sql`NOT ${t.isApproved} AND ${t.deletedAt} IS NULL`),
  ],
);

export const postLikes = pgTable(
  "post_likes",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index("post_likes_user_idx").on(t.userId)],
);

/**
 * Who shared a post, so share_count counts each sharer once (a trigger moves the count with the
 * rows): `u:<user id>` for a signed-in user (once per post), `v:<keyed hash of the address and
 * the day>` for a visitor (once per address, post and day). user_id lets an account's rows go with it.
 */
export const postShares = pgTable(
  "post_shares",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    sharer: text("sharer").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.sharer] }), index("post_shares_user_idx").on(t.userId)],
);

export const savedPosts = pgTable(
  "saved_posts",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId] }),
    index("saved_posts_user_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
  ],
);

export const pollVotes = pgTable(
  "poll_votes",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    optionIndex: smallint("option_index").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    parentId: uuid("parent_id"),
    authorId: text("author_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    likesCount: integer("likes_count").notNull().default(0),
    isEdited: boolean("is_edited").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [index("comments_post_idx").on(t.postId, t.createdAt), index("comments_parent_idx").on(t.parentId)],
);

export const commentLikes = pgTable(
  "comment_likes",
  {
    commentId: uuid("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

/** A moderator's warning to a post's author. */
export const userWarnings = pgTable(
  "user_warnings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    communityId: uuid("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    postId: uuid("post_id").references(() => posts.id, { onDelete: "set null" }),
    issuedBy: text("issued_by").references(() => user.id, { onDelete: "set null" }),
    reason: text("reason").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("user_warnings_user_idx").on(t.communityId, t.userId)],
);

/** Cache of fetched link previews, keyed by normalized URL. */
export const linkPreviews = pgTable("link_previews", {
  url: text("url").primaryKey(),
  preview: jsonb("preview").$type<LinkPreview | null>(),
  fetchedAt: ts("fetched_at").notNull().defaultNow(),
});
