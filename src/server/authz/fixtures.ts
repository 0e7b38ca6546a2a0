/**
 * The people and places of the authorization matrix. Users are made once per run (signing in costs
 * an Argon2 hash each); every cell of the matrix then gets a world of its own: a community with one
 * person in each role, posts of every visibility, a poll, comments, courses (free, paid, draft) with
 * modules and lessons, and the actor's own traces (their post, comment, saved posts, notification).
 * Worlds are written with plain SQL, many in one round trip, so a cell never sees what another
 * cell did and the order cells run in does not matter.
 *
 * The "left" actor is what POST /leave leaves behind (no member row; their posts, comments, saves
 * and notifications stay); the "banned" actor is what POST /bans leaves behind (no member row, a
 * ban row, their content stays).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createConfirmedUser } from "#server/seed/seed";
import { signedInUser, type TestApp } from "#server/test/harness";

/** Everyone a request can come from, in the column order of the expected table. */
export const ACTORS = [
  "anonymous",
  "nonmember",
  "other",
  "left",
  "banned",
  "guest",
  "member",
  "moderator",
  "admin",
  "owner",
] as const;
export type Actor = (typeof ACTORS)[number];
export type SignedInActor = Exclude<Actor, "anonymous">;
export type Visibility = "public" | "private";

/** Signed-in people who are not actors: the author of others' content, a member to act on, a second admin. */
const EXTRAS = ["author", "target", "admin2"] as const;
export type Identity = SignedInActor | (typeof EXTRAS)[number];

/** Each identity's place in a world's community (the world's facts, written down here, not asked of the product). */
export const ROLE_IN_WORLD: Record<Identity, "owner" | "admin" | "moderator" | "member" | "guest" | null> = {
  owner: "owner",
  admin: "admin",
  moderator: "moderator",
  member: "member",
  guest: "guest",
  nonmember: null,
  other: null,
  left: null,
  banned: null,
  author: "member",
  target: "member",
  admin2: "admin",
};

/** Identities that wrote in the community at some point (their own post and comment exist). */
const HAS_OWN_CONTENT = new Set<Identity>(["guest", "member", "moderator", "admin", "owner", "left", "banned"]);

export type User = { id: string; username: string; email: string; cookie: string | null };
export type Users = Record<Identity, User> & {
  /** The community the "other" actor owns. */
  elsewhere: { id: string; postId: string };
};

/** SQL string literal (the values here are made by this module: ids, hex tokens, fixed words). */
const lit = (v: string | null) => (v === null ? "NULL" : `'${v.replaceAll("'", "''")}'`);
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Makes every identity: actors signed in through the API, the others straight in the database. */
export async function createUsers(t: TestApp): Promise<Users> {
  const actors = ACTORS.filter((a): a is SignedInActor => a !== "anonymous");
  const signed = await Promise.all(actors.map((a) => signedInUser(t, { name: `Authz ${a}` })));
  const extras = await Promise.all(
    EXTRAS.map(async (name) => {
      const n = hex(5);
      const email = `authz-${name}-${n}@example.test`;
      const username = `authz_${name}_${n}`;
      const id = await createConfirmedUser(t.database.db, { email, name: `Authz ${name}`, username, password: "x" });
      return { id, email, username, cookie: null };
    }),
  );
  const users = Object.fromEntries([
    ...actors.map((a, i) => [
      a,
      { id: signed[i].id, email: signed[i].email, username: signed[i].username, cookie: signed[i].cookie },
    ]),
    ...EXTRAS.map((e, i) => [e, extras[i]]),
  ]) as Record<Identity, User>;
  // The "other" actor owns a community of their own, with a post in it.
  const elsewhere = randomUUID();
  const postId = randomUUID();
  await t.database.pool.query(`
    INSERT INTO communities (id, name, slug, visibility, invite_code, created_by)
      VALUES (${lit(elsewhere)}, 'Elsewhere', ${lit(`elsewhere-${hex(5)}`)}, 'public', ${lit(hex(16))}, ${lit(users.other.id)});
    INSERT INTO community_members (community_id, user_id, role) VALUES (${lit(elsewhere)}, ${lit(users.other.id)}, 'owner');
    INSERT INTO posts (id, community_id, author_id, content) VALUES (${lit(postId)}, ${lit(elsewhere)}, ${lit(users.other.id)}, 'Hello from elsewhere');
  `);
  return Object.assign(users, { elsewhere: { id: elsewhere, postId } });
}

type CourseIds = { id: string; moduleId: string; lessonId: string };

/** One cell's world. Every text in it contains `token`, so a leak shows in any response body. */
export type World = {
  visibility: Visibility;
  actor: Actor;
  token: string;
  communityId: string;
  name: string;
  slug: string;
  inviteCode: string;
  categoryId: string;
  posts: {
    /** Public, approved, by the author. */
    pub: string;
    /** Members only. */
    members: string;
    /** Admins only. */
    admins: string;
    /** Waiting for approval (moderation), by the author. */
    pending: string;
    /** A poll without an end. */
    poll: string;
    /** The actor's own post (public), when the actor ever wrote in the community. */
    own: string | null;
  };
  comments: { other: string; own: string | null };
  courses: { free: CourseIds; paid: CourseIds; draft: CourseIds };
  notifications: { own: string | null; other: string };
  /** A direct upload the author reserved and never finished. */
  pendingUploadKey: string;
};

function newWorld(visibility: Visibility, actor: Actor): World {
  const token = `zq${hex(6)}`;
  const course = () => ({ id: randomUUID(), moduleId: randomUUID(), lessonId: randomUUID() });
  const own = actor !== "anonymous" && HAS_OWN_CONTENT.has(actor);
  const communityId = randomUUID();
  return {
    visibility,
    actor,
    token,
    communityId,
    name: `Authz ${token}`,
    slug: `authz-${token}`,
    inviteCode: randomBytes(16).toString("base64url"),
    categoryId: randomUUID(),
    posts: {
      pub: randomUUID(),
      members: randomUUID(),
      admins: randomUUID(),
      pending: randomUUID(),
      poll: randomUUID(),
      own: own ? randomUUID() : null,
    },
    comments: { other: randomUUID(), own: own ? randomUUID() : null },
    courses: { free: course(), paid: course(), draft: course() },
    notifications: { own: actor === "anonymous" ? null : randomUUID(), other: randomUUID() },
    pendingUploadKey: `community-assets/${communityId}/posts/${randomUUID()}.mp4`,
  };
}

/**
 * The same world with every id and text replaced by fresh ones that exist nowhere: the request a
 * cell makes, sent against it, is what "an id that does not exist" answers.
 */
export function ghostOf(w: World): World {
  const g = newWorld(w.visibility, w.actor);
  // Keep the shape (which optional parts exist) so the request is built the same way.
  if (!w.posts.own) g.posts.own = null;
  if (!w.comments.own) g.comments.own = null;
  if (!w.notifications.own) g.notifications.own = null;
  return g;
}

/** The tables a world's rows go to, in the order they are inserted, with the columns the rows give. */
const WORLD_TABLES = {
  communities: ["communities", "id, name, slug, description, visibility, invite_code, created_by"],
  members: ["community_members", "community_id, user_id, role"],
  bans: ["community_bans", "community_id, user_id, banned_by"],
  categories: ["post_categories", "id, community_id, name"],
  posts: ["posts", "id, community_id, author_id, content, type, visibility, is_approved, poll_data"],
  comments: ["comments", "id, post_id, author_id, content"],
  saved: ["saved_posts", "post_id, user_id"],
  courses: ["courses", "id, community_id, title, description, price, access, status, order_index, created_by"],
  coursePrices: ["prices", "product, community_id, course_id, interval, currency, amount"],
  modules: ["course_modules", "id, course_id, title, order_index"],
  lessons: ["course_lessons", "id, module_id, title, video_url, order_index"],
  notifications: ["notifications", "id, user_id, community_id, actor_id, type, title, data"],
  media: ["media_files", "key, owner_id, community_id, purpose, content_type, size, status"],
} as const;

/** Inserts the worlds, all in one round trip. */
export async function createWorlds(
  t: TestApp,
  users: Users,
  cells: { visibility: Visibility; actor: Actor }[],
): Promise<World[]> {
  const worlds = cells.map((c) => newWorld(c.visibility, c.actor));
  const rows = Object.fromEntries(Object.keys(WORLD_TABLES).map((k) => [k, [] as string[]])) as Record<
    keyof typeof WORLD_TABLES,
    string[]
  >;
  const id = (who: Identity) => lit(users[who].id);
  for (const w of worlds) {
    const c = lit(w.communityId);
    const tok = w.token;
    rows.communities.push(
      `(${c}, ${lit(w.name)}, ${lit(w.slug)}, ${lit(`About ${tok}`)}, ${lit(w.visibility)}, ${lit(w.inviteCode)}, ${id("owner")})`,
    );
    for (const who of Object.keys(ROLE_IN_WORLD) as Identity[]) {
      const role = ROLE_IN_WORLD[who];
      if (role) rows.members.push(`(${c}, ${id(who)}, ${lit(role)})`);
    }
    rows.bans.push(`(${c}, ${id("banned")}, ${id("owner")})`);
    rows.categories.push(`(${lit(w.categoryId)}, ${c}, ${lit(`Cat ${tok}`)})`);
    const post = (
      pid: string,
      author: Identity,
      content: string,
      visibility: string,
      approved: boolean,
      poll = "NULL",
    ) =>
      rows.posts.push(
        `(${lit(pid)}, ${c}, ${id(author)}, ${lit(`${content} ${tok}`)}, ${lit(poll === "NULL" ? "text" : "poll")}, ${lit(visibility)}, ${approved}, ${poll})`,
      );
    post(w.posts.pub, "author", "Public post", "public", true);
    post(w.posts.members, "author", "Members post", "members", true);
    post(w.posts.admins, "author", "Admins post", "admins", true);
    post(w.posts.pending, "author", "Pending post", "public", false);
    const pollData = {
      options: [
        { id: randomUUID(), text: `Yes ${tok}`, votes: 0 },
        { id: randomUUID(), text: `No ${tok}`, votes: 0 },
      ],
      duration_hours: 0,
      expires_at: null,
      total_votes: 0,
    };
    post(w.posts.poll, "author", "Poll", "public", true, `${lit(JSON.stringify(pollData))}::jsonb`);
    const actor = w.actor === "anonymous" ? null : w.actor;
    if (w.posts.own && actor) post(w.posts.own, actor, "Own post", "public", true);
    rows.comments.push(`(${lit(w.comments.other)}, ${lit(w.posts.pub)}, ${id("author")}, ${lit(`Comment ${tok}`)})`);
    if (w.comments.own && actor) {
      rows.comments.push(`(${lit(w.comments.own)}, ${lit(w.posts.pub)}, ${id(actor)}, ${lit(`Own comment ${tok}`)})`);
    }
    if (actor) {
      rows.saved.push(`(${lit(w.posts.pub)}, ${id(actor)})`, `(${lit(w.posts.members)}, ${id(actor)})`);
    }
    const courses: [CourseIds, string, number, string, number][] = [
      [w.courses.free, "Free course", 0, "published", 0],
      [w.courses.paid, "Paid course", 10, "published", 1],
      [w.courses.draft, "Draft course", 0, "draft", 2],
    ];
    for (const [co, title, price, status, order] of courses) {
      rows.courses.push(
        `(${lit(co.id)}, ${c}, ${lit(`${title} ${tok}`)}, ${lit(`About ${tok}`)}, ${price}, ${lit(price > 0 ? "sold" : "members")}, ${lit(status)}, ${order}, ${id("owner")})`,
      );
      if (price > 0) rows.coursePrices.push(`('course', ${c}, ${lit(co.id)}, 'once', 'usd', ${price * 100})`);
      rows.modules.push(`(${lit(co.moduleId)}, ${lit(co.id)}, ${lit(`Module ${tok}`)}, 0)`);
      rows.lessons.push(
        `(${lit(co.lessonId)}, ${lit(co.moduleId)}, ${lit(`Lesson ${tok}`)}, ${lit(`https://videos.example.test/${tok}.mp4`)}, 0)`,
      );
    }
    const data = lit(JSON.stringify({ post_id: w.posts.pub }));
    if (w.notifications.own && actor) {
      rows.notifications.push(
        `(${lit(w.notifications.own)}, ${id(actor)}, ${c}, ${id("author")}, 'post_like', ${lit(`Liked ${tok}`)}, ${data})`,
      );
    }
    rows.notifications.push(
      `(${lit(w.notifications.other)}, ${id("author")}, ${c}, ${id("owner")}, 'post_like', ${lit(`Liked ${tok}`)}, ${data})`,
    );
    rows.media.push(`(${lit(w.pendingUploadKey)}, ${id("author")}, ${c}, 'post', 'video/mp4', 1000, 'pending')`);
  }
  const insert = (table: string, columns: string, values: string[]) =>
    values.length ? `INSERT INTO ${table} (${columns}) VALUES ${values.join(",\n")};` : "";
  await t.database.pool.query(
    Object.entries(WORLD_TABLES)
      .map(([k, [table, columns]]) => insert(table, columns, rows[k as keyof typeof WORLD_TABLES]))
      .join("\n"),
  );
  return worlds;
}

/**
 * A fingerprint of everything in a world a request could change (and of the actor's own settings):
 * a refused request must leave it as it was. Activity times are left out (reading a community
 * page refreshes the reader's).
 */
export async function worldState(t: TestApp, w: World, actorId: string | null): Promise<string> {
  const { rows } = await t.database.pool.query<{ state: string }>(
    `WITH p AS (SELECT id FROM posts WHERE community_id = $1),
          co AS (SELECT id FROM courses WHERE community_id = $1),
          mo AS (SELECT id FROM course_modules WHERE course_id IN (SELECT id FROM co)),
          cm AS (SELECT id FROM comments WHERE post_id IN (SELECT id FROM p))
     SELECT md5(concat_ws(' | ',
       (SELECT row(c.name, c.slug, c.description, c.tagline, c.visibility, c.invite_code, c.invite_enabled, c.icon_url,
                   c.cover_url, c.type, c.price, c.moderation_enabled, c.member_count, c.post_count, c.rules,
                   c.onboarding_tasks_completed)::text FROM communities c WHERE c.id = $1),
       (SELECT string_agg(user_id || ':' || role, ',' ORDER BY user_id) FROM community_members WHERE community_id = $1),
       (SELECT string_agg(user_id, ',' ORDER BY user_id) FROM community_bans WHERE community_id = $1),
       (SELECT string_agg(row(id, name, emoji, order_index)::text, ',' ORDER BY id) FROM post_categories WHERE community_id = $1),
       (SELECT string_agg(row(id, content, visibility, is_approved, is_pinned, is_edited, likes_count, comments_count,
                              share_count, poll_data, deleted_at, category_id)::text, ',' ORDER BY id)
          FROM posts WHERE community_id = $1),
       (SELECT string_agg(row(id, content, likes_count, is_edited, deleted_at)::text, ',' ORDER BY id) FROM comments WHERE id IN (SELECT id FROM cm)),
       (SELECT string_agg(post_id || ':' || user_id, ',' ORDER BY post_id, user_id) FROM post_likes WHERE post_id IN (SELECT id FROM p)),
       (SELECT string_agg(comment_id || ':' || user_id, ',' ORDER BY comment_id, user_id) FROM comment_likes WHERE comment_id IN (SELECT id FROM cm)),
       (SELECT string_agg(post_id || ':' || user_id, ',' ORDER BY post_id, user_id) FROM saved_posts WHERE post_id IN (SELECT id FROM p)),
       (SELECT string_agg(post_id || ':' || user_id || ':' || option_index, ',' ORDER BY post_id, user_id) FROM poll_votes WHERE post_id IN (SELECT id FROM p)),
       (SELECT count(*)::text FROM user_warnings WHERE community_id = $1),
       (SELECT string_agg(row(id, title, description, price, access, tier_ids, status, order_index, thumbnail_url)::text, ',' ORDER BY id) FROM courses WHERE id IN (SELECT id FROM co)),
       (SELECT string_agg(row(id, title, description, order_index)::text, ',' ORDER BY id) FROM course_modules WHERE id IN (SELECT id FROM mo)),
       (SELECT string_agg(row(id, module_id, title, video_url, is_preview, order_index)::text, ',' ORDER BY id) FROM course_lessons WHERE module_id IN (SELECT id FROM mo)),
       (SELECT string_agg(user_id || ':' || lesson_id, ',' ORDER BY user_id, lesson_id) FROM lesson_completions WHERE course_id IN (SELECT id FROM co)),
       (SELECT string_agg(user_id || ':' || course_id || ':' || status, ',' ORDER BY user_id, course_id, status) FROM entitlements WHERE course_id IN (SELECT id FROM co)),
       (SELECT string_agg(id || ':' || user_id || ':' || is_read, ',' ORDER BY id) FROM notifications WHERE community_id = $1),
       (SELECT string_agg(key || ':' || status, ',' ORDER BY key) FROM media_files WHERE community_id = $1),
       (SELECT row(s.global_enabled, s.email_enabled, s.in_app_enabled, s.community_settings)::text
          FROM user_notification_settings s WHERE s.user_id = $2),
       (SELECT row(u.headline, u.avatar_url, u.username)::text FROM user_profiles u WHERE u.user_id = $2)
     )) AS state`,
    [w.communityId, actorId ?? ""],
  );
  return rows[0].state;
}
