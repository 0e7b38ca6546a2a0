import { type APIRequestContext, type Locator, type Page, expect, request, test } from "@playwright/test";
import {
  BASE_URL,
  type TestUser,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  header,
  logIn,
  uniqueSuffix,
} from "./helpers";

type Session = { api: APIRequestContext; id: string; user: TestUser };
type Community = { id: string; slug: string; name: string };
type Post = { id: string; content: string; is_approved: boolean };
type Comment = { id: string; content: string };

/** A signed-in API session (cookies kept by the context), as a second browser would have. */
async function apiSession(user: TestUser): Promise<Session> {
  const api = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const res = await api.post("/api/auth/sign-in/email", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  const { user: signedIn } = (await res.json()) as { user: { id: string } };
  return { api, id: signedIn.id, user };
}

async function call<T>(s: Session, method: "get" | "post" | "patch" | "delete", path: string, data?: unknown) {
  const res = await s.api[method](path, data === undefined ? {} : { data });
  expect(res.ok(), `${method.toUpperCase()} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

async function createCommunity(owner: Session, name = `Kiln ${uniqueSuffix().slice(-6)}`): Promise<Community> {
  const created = await call<{ id: string; slug: string }>(owner, "post", "/api/communities", { name });
  return { name, ...created };
}

const writePost = (s: Session, c: Community, content: string, extra: Record<string, unknown> = {}) =>
  call<Post>(s, "post", `/api/communities/${c.id}/posts`, { content, ...extra });

const writeComment = (s: Session, postId: string, content: string, parentId?: string) =>
  call<Comment>(s, "post", `/api/posts/${postId}/comments`, { content, ...(parentId ? { parent_id: parentId } : {}) });

async function signInOnPage(page: Page, user: TestUser, path = "/") {
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);
  if (path !== "/") await page.goto(path);
}

/** The comment (or reply) article whose text contains `text`, innermost first. */
const commentWith = (page: Page, text: string): Locator =>
  page.getByRole("list", { name: "Comments" }).getByRole("article").filter({ hasText: text }).last();

const commentsHeading = (page: Page) => page.getByRole("heading", { level: 2, name: /^Comments/ });

let owner: Session;
let member: Session;
let moderator: Session;
let community: Community;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const [o, m, mod] = await Promise.all([
    createConfirmedUser("owner"),
    createConfirmedUser("member"),
    createConfirmedUser("mod"),
  ]);
  owner = await apiSession(o);
  member = await apiSession(m);
  moderator = await apiSession(mod);
  community = await createCommunity(owner);
  await call(member, "post", `/api/communities/${community.id}/join`);
  await call(moderator, "post", `/api/communities/${community.id}/join`);
  await call(owner, "patch", `/api/communities/${community.id}/members/${moderator.id}`, { role: "moderator" });
});

test.afterAll(async () => {
  await Promise.all([owner?.api.dispose(), member?.api.dispose(), moderator?.api.dispose()]);
});

test("a member comments, replies, likes, edits and deletes a comment on /post/{id}", async ({ page }) => {
  const post = await writePost(owner, community, `Show us your glaze tests ${uniqueSuffix()}`);
  const ownersComment = await writeComment(owner, post.id, "Mine came out speckled this time.");
  await signInOnPage(page, member.user, `/post/${post.id}`);

  // The post, its community link back to the post in the feed, and a title.
  await expect(page.getByText(post.content)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`${community.name} · Hearth$`));
  const back = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link");
  await expect(back).toHaveAccessibleName(`Back to ${community.name}`);
  await expect(back).toHaveAttribute("href", `/community/${community.slug}#post-${post.id}`);
  await expect(commentsHeading(page)).toHaveText("Comments1");
  await expect(commentWith(page, ownersComment.content)).toBeVisible();
  await expectNoViolations(page, "the post page");

  // Post stays disabled while the box is blank.
  const composer = page.getByRole("textbox", { name: "Write a comment" });
  const postButton = page.getByRole("button", { name: "Post", exact: true });
  await expect(postButton).toBeDisabled();
  await composer.fill("   ");
  await expect(postButton).toBeDisabled();
  await composer.fill("Tenmoku over shino, fired to cone 10.");
  await postButton.click();
  const mine = commentWith(page, "Tenmoku over shino, fired to cone 10.");
  await expect(mine).toBeVisible();
  await expect(mine.getByText("just now")).toBeVisible();
  await expect(composer).toHaveValue("");
  await expect(commentsHeading(page)).toHaveText("Comments2");

  // Reply under the owner's comment: an inline box, the reply indented under it.
  await commentWith(page, ownersComment.content)
    .getByRole("button", { name: `Reply to ${owner.user.name}` })
    .click();
  const replyBox = page.getByRole("textbox", { name: `Reply to ${owner.user.name}` });
  await expect(replyBox).toBeFocused();
  await replyBox.fill("Speckles are the best part.");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(replyBox).toHaveCount(0);
  const thread = page
    .getByRole("list", { name: "Comments" })
    .getByRole("listitem")
    .filter({ hasText: ownersComment.content });
  await expect(thread.getByRole("list", { name: "Replies" }).getByText("Speckles are the best part.")).toBeVisible();

  // Like the owner's comment; it stays liked after a reload.
  const like = commentWith(page, ownersComment.content).getByRole("button", {
    name: new RegExp(`^Like ${owner.user.name}'s comment`),
  });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(like).toHaveAccessibleName(`Like ${owner.user.name}'s comment, 1 like`);
  await page.reload();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(like).toContainText("1");

  // On others' comments a member may only report (issue 22): no Edit, no Delete.
  await commentWith(page, ownersComment.content)
    .getByRole("button", { name: `Actions for ${owner.user.name}'s comment` })
    .click();
  await expect(page.getByRole("menuitem")).toHaveText(["Report"]);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menuitem")).toHaveCount(0);

  // Edit my comment: it shows as edited.
  await mine.getByRole("button", { name: `Actions for ${member.user.name}'s comment` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const editBox = page.getByRole("textbox", { name: "Edit your comment" });
  await expect(editBox).toHaveValue("Tenmoku over shino, fired to cone 10.");
  await editBox.fill("Tenmoku over shino, fired to cone 6.");
  await page.getByRole("list", { name: "Comments" }).getByRole("button", { name: "Save", exact: true }).click();
  const edited = commentWith(page, "Tenmoku over shino, fired to cone 6.");
  await expect(edited.getByText("edited", { exact: true })).toBeVisible();

  // Delete it, after confirming.
  await edited.getByRole("button", { name: `Actions for ${member.user.name}'s comment` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this comment?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Tenmoku over shino, fired to cone 6.")).toHaveCount(0);
  await expect(commentsHeading(page)).toHaveText("Comments2");
  const comments = await call<Comment[]>(member, "get", `/api/posts/${post.id}/comments`);
  expect(comments.map((c) => c.content)).toEqual([ownersComment.content, "Speckles are the best part."]);
});

test("a moderator deletes a member's comment; its reply stays under a placeholder", async ({ page }) => {
  const post = await writePost(owner, community, `Firing schedule ${uniqueSuffix()}`);
  const rude = await writeComment(member, post.id, "This comment breaks the rules.");
  await writeComment(owner, post.id, "Please keep it kind.", rude.id);
  await signInOnPage(page, moderator.user, `/post/${post.id}`);

  const target = commentWith(page, rude.content);
  await target.getByRole("button", { name: `Actions for ${member.user.name}'s comment` }).click();
  await expect(page.getByRole("menuitem", { name: "Edit" })).toHaveCount(0);
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this comment?" });
  await expect(confirm).toContainText(`${member.user.name}'s comment as a moderator`);
  await confirm.getByRole("button", { name: "Delete" }).click();

  await expect(page.getByText(rude.content)).toHaveCount(0);
  await expect(page.getByText("This comment was deleted")).toBeVisible();
  await expect(commentWith(page, "Please keep it kind.")).toBeVisible();
  await expect(commentsHeading(page)).toHaveText("Comments1");
});

test("a members-only post is not found for an anonymous visitor", async ({ page }) => {
  const hidden = await writePost(owner, community, "Members only: the kiln schedule", { visibility: "members" });
  await page.goto(`/post/${hidden.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Post not found" })).toBeVisible();
  await expect(page).toHaveTitle("Post not found · Hearth");
  await expect(page.getByText("the kiln schedule")).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");

  // A post that never existed reads the same.
  await page.goto("/post/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { level: 1, name: "Post not found" })).toBeVisible();

  // Signed out, comments ask to sign in first.
  const open = await writePost(owner, community, `Open studio night ${uniqueSuffix()}`);
  await page.goto(`/post/${open.id}`);
  await page.getByRole("button", { name: "Log in to comment" }).click();
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await expect(dialog.getByText("Sign in to comment on this post.")).toBeVisible();
});

test("saved posts: signed out asks to sign in and comes back; the list links to the post and its community", async ({
  page,
}) => {
  const post = await writePost(owner, community, `Glaze recipe worth keeping ${uniqueSuffix()}`);
  await call(member, "post", `/api/posts/${post.id}/save`);

  await page.goto("/saved");
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await expect(dialog.getByText("Sign in to see your saved posts.")).toBeVisible();
  await dialog.getByLabel("Email").fill(moderator.user.email);
  await dialog.getByLabel("Password", { exact: true }).fill(moderator.user.password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/saved$/);
  await expect(page.getByRole("heading", { level: 2, name: "No saved posts yet" })).toBeVisible();

  // Sign out, then the member opens Saved posts from the user menu.
  await header(page).getByRole("button", { name: "Open user menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(header(page).getByRole("button", { name: "Log in" })).toBeVisible();
  await signInOnPage(page, member.user);
  await header(page).getByRole("button", { name: "Open user menu" }).click();
  await page.getByRole("menuitem", { name: "Saved posts" }).click();
  await expect(page).toHaveURL(/\/saved$/);
  await expect(page).toHaveTitle("Saved posts · Hearth");
  await expect(page.getByRole("heading", { level: 1, name: "Saved posts" })).toBeVisible();

  const item = page.getByRole("list", { name: "Saved posts" }).getByRole("article").filter({ hasText: post.content });
  await expect(item.getByRole("link", { name: community.name })).toHaveAttribute(
    "href",
    `/community/${community.slug}`,
  );
  await expectNoViolations(page, "the saved posts page");
  await item.getByRole("link", { name: post.content }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  await expect(commentsHeading(page)).toBeVisible();
});

test("the owner approves and a moderator rejects pending posts; the approved one joins the feed", async ({
  browser,
  page,
}) => {
  const moderated = await createCommunity(owner, `Review ${uniqueSuffix().slice(-6)}`);
  await call(member, "post", `/api/communities/${moderated.id}/join`);
  await call(moderator, "post", `/api/communities/${moderated.id}/join`);
  await call(owner, "patch", `/api/communities/${moderated.id}/members/${moderator.id}`, { role: "moderator" });
  await call(owner, "patch", `/api/communities/${moderated.id}`, { moderation_enabled: true });
  const first = await writePost(member, moderated, `Wheel for sale, barely used ${uniqueSuffix()}`);
  const second = await writePost(member, moderated, `Buy my course on DM ${uniqueSuffix()}`);
  expect([first.is_approved, second.is_approved]).toEqual([false, false]);

  await signInOnPage(page, owner.user, `/community/${moderated.slug}?tab=admin`);
  const panel = page.getByRole("region", { name: "Pending approvals" });
  await expect(panel.getByText("2 waiting")).toBeVisible();
  const pendingList = panel.getByRole("list", { name: "Posts waiting for approval" });
  await expect(pendingList.getByRole("article")).toHaveCount(2);
  const firstItem = pendingList.getByRole("article").filter({ hasText: first.content });
  await expect(firstItem.getByText(member.user.name)).toBeVisible();
  // The time element itself: a generated name may contain "ago" too (member_mwyagoln…).
  await expect(firstItem.getByRole("time")).toHaveText(/ago|just now/);
  await expectNoViolations(page, "the Admin tab with pending posts");
  await firstItem.getByRole("button", { name: `Approve ${member.user.name}'s post` }).click();
  await expect(firstItem).toHaveCount(0);
  await expect(panel.getByText("1 waiting")).toBeVisible();
  await expect(page.getByRole("term").filter({ hasText: "Pending posts" }).locator("..")).toHaveText("Pending posts1");

  await page.getByRole("tab", { name: "Community" }).click();
  await expect(page.getByRole("article").filter({ hasText: first.content })).toBeVisible();

  // The moderator has the Admin tab too (its reports queue, issue 22); the pending post also waits
  // at the top of the Community tab.
  const modContext = await browser.newContext();
  const modPage = await modContext.newPage();
  await signInOnPage(modPage, moderator.user, `/community/${moderated.slug}`);
  await expect(modPage.getByRole("tab", { name: "Admin" })).toBeVisible();
  const modPanel = modPage.getByRole("region", { name: "Pending approvals" });
  await modPanel.getByRole("button", { name: `Reject ${member.user.name}'s post` }).click();
  const confirm = modPage.getByRole("alertdialog", { name: "Reject this post?" });
  await confirm.getByRole("button", { name: "Reject post" }).click();
  await expect(modPanel).toHaveCount(0);
  await modContext.close();

  const pending = await call<Post[]>(owner, "get", `/api/communities/${moderated.id}/posts/pending`);
  expect(pending).toEqual([]);
  const feed = await call<{ items: Post[] }>(owner, "get", `/api/communities/${moderated.id}/posts`);
  expect(feed.items.map((p) => p.content)).toEqual([first.content]);
});

test("the leaderboard ranks the member whose posts got the most likes first", async ({ page }) => {
  const board = await createCommunity(owner, `Board ${uniqueSuffix().slice(-6)}`);
  await call(member, "post", `/api/communities/${board.id}/join`);
  await call(moderator, "post", `/api/communities/${board.id}/join`);
  const membersPost = await writePost(member, board, "My first lidded jar");
  const ownersPost = await writePost(owner, board, "Studio rules");
  const comment = await writeComment(moderator, ownersPost.id, "Noted!");
  await call(owner, "post", `/api/posts/${membersPost.id}/like`);
  await call(moderator, "post", `/api/posts/${membersPost.id}/like`);
  await call(member, "post", `/api/posts/${ownersPost.id}/like`);
  await call(member, "post", `/api/comments/${comment.id}/like`);
  await call(owner, "post", `/api/comments/${comment.id}/like`);

  await signInOnPage(page, owner.user, `/community/${board.slug}?tab=leaderboards`);
  const ranking = page.getByRole("list", { name: /^Top members/ });
  const rows = ranking.getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(member.user.name);
  await expect(rows.nth(0)).toContainText("2 likes");
  await expect(rows.nth(0).getByRole("link", { name: member.user.name })).toHaveAttribute(
    "href",
    `/u/${member.user.username}`,
  );
  await expect(rows.nth(0)).toContainText("Rank 1");
  // The moderator also has 2 likes (a shared first rank); the owner has 1 and is marked as "You".
  await expect(rows.nth(2)).toContainText(owner.user.name);
  await expect(rows.nth(2)).toContainText("1 like");
  await expect(rows.nth(2)).toContainText("You");
  await expect(rows.nth(2)).toContainText("Rank 3");

  // All time ranks by points (likes received, plus lessons and events when the owner counts them).
  for (const [period, text] of [
    ["7 days", "2 likes"],
    ["All time", "2 points"],
    ["30 days", "2 likes"],
  ]) {
    await page.getByRole("button", { name: period }).click();
    await expect(page.getByRole("button", { name: period })).toHaveAttribute("aria-pressed", "true");
    await expect(rows.nth(0)).toContainText(text);
  }
  await expectNoViolations(page, "the leaderboards tab");

  // A community without likes shows the empty state.
  const quiet = await createCommunity(owner, `Quiet ${uniqueSuffix().slice(-6)}`);
  await page.goto(`/community/${quiet.slug}?tab=leaderboards`);
  await expect(page.getByRole("heading", { name: "No likes yet in this period" })).toBeVisible();
});
