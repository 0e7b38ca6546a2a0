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
import { POST_TYPES, POST_VISIBILITIES } from "#shared/posts";
import type { LinkPreview, MediaItem, PollData } from "#shared/posts.schemas";
import { user } from "./auth";
import { communities, postCategories } from "./communities";

export type { LinkPreview, MediaItem, PollData, PollOption } from "#shared/posts.schemas";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/** A row's user, removed with their account. */
const userRef = () =>
  text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
/** A row's post, removed with it. */
const postRef = () =>
  uuid("post_id")
    .notNull()
    .references(() => posts.id, { onDelete: "cascade" });
/** A row saying that a user did something to a post once (like, save): the pair is the key. */
const userOnPost = () => ({ postId: postRef(), userId: userRef(), createdAt: ts("created_at").notNull().defaultNow() });

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
    type: text("type", { enum: POST_TYPES }).notNull().default("text"),
    isApproved: boolean("is_approved").notNull().default(true),
    visibility: text("visibility", { enum: POST_VISIBILITIES }).notNull().default("public"),
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
    /** Hidden pending review after enough reports (issue 22): seen only by its author and moderators. */
    hiddenAt: ts("hidden_at"),
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

export const postLikes = pgTable("post_likes", userOnPost(), (t) => [
  primaryKey({ columns: [t.postId, t.userId] }),
  index("post_likes_user_idx").on(t.userId),
]);

/**
 * Who shared a post, so share_count counts each sharer once (a trigger moves the count with the
 * rows): `u:<user id>` for a signed-in user (once per post), `v:<keyed hash of the address and
 * the day>` for a visitor (once per address, post and day). user_id lets an account's rows go with it.
 */
export const postShares = pgTable(
  "post_shares",
  {
    postId: postRef(),
    sharer: text("sharer").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.sharer] }), index("post_shares_user_idx").on(t.userId)],
);

export const savedPosts = pgTable("saved_posts", userOnPost(), (t) => [
  primaryKey({ columns: [t.postId, t.userId] }),
  index("saved_posts_user_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
]);

export const pollVotes = pgTable(
  "poll_votes",
  {
    postId: postRef(),
    userId: userRef(),
    optionIndex: smallint("option_index").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: postRef(),
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
    /** Hidden pending review after enough reports (issue 22): seen only by its author and moderators. */
    hiddenAt: ts("hidden_at"),
  },
  (t) => [index("comments_post_idx").on(t.postId, t.createdAt), index("comments_parent_idx").on(t.parentId)],
);

export const commentLikes = pgTable(
  "comment_likes",
  {
    commentId: uuid("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: userRef(),
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
    userId: userRef(),
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
