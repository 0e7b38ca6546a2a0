import { type APIRequestContext, type Locator, type Page, expect, test } from "@playwright/test";
import sharp from "sharp";
import { MSG } from "../src/shared/messages";
import {
  BASE_URL,
  type TestUser,
  apiFor,
  createConfirmedUser,
  expectNoViolations,
  uniqueSuffix,
  signInPage,
} from "./helpers";

// Posts in the community feed: the composer for every type, the post card (images, video, poll,
// link, text shown as text), like, save, share, and the post menu (edit, pin, warn, delete).
// Each journey makes its own community through the API, so nothing depends on the demo seed.

// Transitions finished at once: axe then judges colors as they settle, not mid-fade.
test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };
type Post = { id: string; content: string };

let owner: TestUser;
let member: TestUser;
let ownerApi: APIRequestContext;
let memberApi: APIRequestContext;

/** A public community of the owner's, which the member joins. */
async function createCommunity(prefix: string): Promise<Community> {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { id: string; slug: string };
  const joined = await memberApi.post(`/api/communities/${created.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);
  return { ...created, name };
}

async function createPost(api: APIRequestContext, community: Community, data: object): Promise<Post> {
  const res = await api.post(`/api/communities/${community.id}/posts`, { data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Post;
}

const png = (color: string, width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

const postCard = (page: Page, text: string) => page.getByRole("article").filter({ hasText: text });

async function openComposer(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Write something..." }).click();
  const dialog = page.getByRole("dialog", { name: "Create post" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Picks a post type in the composer's switch. */
async function chooseType(dialog: Locator, type: "Text" | "Image" | "Video" | "Poll" | "Link") {
  await dialog
    .locator("label")
    .filter({ hasText: new RegExp(`^${type}$`) })
    .click();
  await expect(dialog.getByRole("radio", { name: type })).toBeChecked();
}

test.beforeAll(async () => {
  owner = await createConfirmedUser("powner");
  member = await createConfirmedUser("pmember");
  ownerApi = await apiFor(owner);
  memberApi = await apiFor(member);
});

test.afterAll(async () => {
  await ownerApi?.dispose();
  await memberApi?.dispose();
});

test("the owner posts text, images, a video link, a poll and a link from the composer", async ({ page }) => {
  const community = await createCommunity("Composer");
  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}`);
  await expect(page.getByText("No posts yet")).toBeVisible();

  // Text: whitespace keeps Post off; line breaks survive.
  let dialog = await openComposer(page);
  await expect(dialog.getByRole("radio", { name: "Text" })).toBeChecked();
  const content = dialog.getByLabel("Post content");
  await content.fill("  \n ");
  await expect(dialog.getByRole("button", { name: "Post", exact: true })).toBeDisabled();
  await content.fill("First line of a text post\nSecond line");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const text = postCard(page, "First line of a text post");
  await expect(text).toBeVisible();
  await expect(text.getByText("just now")).toBeVisible();

  // Images: the client refuses a wrong type and a file over 10 MB with the spec's messages, then
  // five pictures upload with previews; one is removed and added again.
  dialog = await openComposer(page);
  await chooseType(dialog, "Image");
  const files = dialog.locator('input[type="file"]');
  await files.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
  await expect(
    dialog.getByText("notes.txt: Invalid file type. Accepted types: .jpg, .jpeg, .png, .webp, .gif"),
  ).toBeVisible();
  await files.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
  await expect(dialog.getByText("huge.png: File size exceeds 10MB limit")).toBeVisible();
  const colors = ["#ea580c", "#0f766e", "#7c3aed", "#be123c", "#1d4ed8"];
  await files.setInputFiles(
    await Promise.all(
      colors.map(async (c, i) => ({ name: `photo-${i + 1}.png`, mimeType: "image/png", buffer: await png(c) })),
    ),
  );
  const chosen = dialog.getByRole("list", { name: "Chosen images" }).getByRole("listitem");
  await expect(chosen).toHaveCount(5);
  await expect(dialog.getByRole("progressbar")).toHaveCount(0, { timeout: 20_000 });
  await dialog.getByRole("button", { name: "Remove image 5" }).click();
  await expect(chosen).toHaveCount(4);
  await files.setInputFiles({ name: "photo-5.png", mimeType: "image/png", buffer: await png(colors[4]) });
  await expect(chosen).toHaveCount(5);
  await expect(dialog.getByRole("progressbar")).toHaveCount(0, { timeout: 20_000 });
  await dialog.getByLabel("Post content").fill("Five studio shots");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const gallery = postCard(page, "Five studio shots");
  await expect(gallery.getByRole("button", { name: /^View image \d of 5$/ })).toHaveCount(3);
  const more = gallery.getByRole("button", { name: "View all 5 images, 1 more" });
  await expect(more).toHaveText("+1");
  const thumbs = gallery.getByRole("button", { name: /^View/ }).locator("img");
  await expect(thumbs).toHaveCount(4);
  for (const img of await thumbs.all()) {
    await expect(img).toHaveAttribute("loading", "lazy");
    await expect(img).toHaveAttribute("src", /^\/media\/.+-medium\.webp$/);
    await expect(img).toHaveAttribute("width", /\d+/);
  }
  // The viewer shows every image; arrow keys move, Escape closes.
  await more.click();
  const viewer = page.getByRole("dialog", { name: /Images from/ });
  await expect(viewer.getByText("4 of 5")).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(viewer.getByText("5 of 5")).toBeVisible();
  await expect(viewer.getByRole("img", { name: "Image 5 of 5" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(viewer.getByText("1 of 5")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);

  // Video link: a page that is not a video is refused; a YouTube link previews and posts as an embed.
  dialog = await openComposer(page);
  await chooseType(dialog, "Video");
  await expect(dialog.getByLabel("Upload video")).toHaveAttribute("type", "file");
  const videoLink = dialog.getByLabel("Video link");
  await videoLink.fill("https://example.com/not-a-video");
  await videoLink.blur();
  await expect(dialog.getByText(/Please add a YouTube or Vimeo link/)).toBeVisible();
  await videoLink.fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await expect(dialog.locator('iframe[src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"]')).toHaveCount(1);
  await dialog.getByLabel("Post content").fill("A talk worth watching");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const video = postCard(page, "A talk worth watching").locator("iframe");
  await expect(video).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
  await expect(video).toHaveAttribute("title", "YouTube video");
  await expect(video).toHaveAttribute("loading", "lazy");

  // Poll: fewer than two options gives the spec's message; options are added and removed.
  dialog = await openComposer(page);
  await chooseType(dialog, "Poll");
  await dialog.getByLabel("Post content").fill("Which day works best for the live call?");
  await dialog.getByRole("textbox", { name: "Option 1" }).fill("Monday");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog.getByText(MSG.pollNeedsTwoOptions)).toBeVisible();
  await dialog.getByRole("textbox", { name: "Option 2" }).fill("Wednesday");
  await dialog.getByRole("button", { name: "Add option" }).click();
  await expect(dialog.getByRole("textbox", { name: "Option 3" })).toBeFocused();
  await dialog.getByRole("textbox", { name: "Option 3" }).fill("Friday");
  await dialog.getByRole("button", { name: "Add option" }).click();
  await dialog.getByRole("button", { name: "Remove option 4" }).click();
  await expect(dialog.getByRole("textbox", { name: "Option 4" })).toHaveCount(0);
  await expect(dialog.getByLabel("Poll duration")).toHaveText("1 day");
  await dialog.getByLabel("Poll duration").click();
  await page.getByRole("option", { name: "1 week" }).click();
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const poll = postCard(page, "Which day works best");
  await expect(poll.getByRole("button", { name: "Wednesday" })).toBeVisible();
  await expect(poll.getByText("Ends in 7 days")).toBeVisible();
  await expect(poll.getByText("%")).toHaveCount(0);

  // The member votes through the API; the owner votes here and sees the shares.
  const pollId = (await poll.getAttribute("id"))!.replace(/^post-/, "");
  const memberVote = await memberApi.post(`/api/posts/${pollId}/vote`, { data: { option_index: 0 } });
  expect(memberVote.status(), await memberVote.text()).toBe(200);
  await poll.getByRole("button", { name: "Wednesday" }).click();
  const results = poll.getByRole("list", { name: "Poll results" });
  await expect(results).toBeVisible();
  await expect(results.getByRole("listitem").filter({ hasText: "Monday" })).toContainText("50%");
  await expect(results.getByRole("listitem").filter({ hasText: "Wednesday" })).toContainText("50%");
  await expect(results.getByRole("listitem").filter({ hasText: "Wednesday" })).toContainText("(your vote)");
  await expect(results.getByRole("listitem").filter({ hasText: "Friday" })).toContainText("0%");
  await expect(poll.getByText("2 votes")).toBeVisible();
  await page.reload();
  await expect(postCard(page, "Which day works best").getByRole("list", { name: "Poll results" })).toBeVisible();

  // Link: a post with a URL; the note says a preview will be attached; the URL is a safe link.
  dialog = await openComposer(page);
  await chooseType(dialog, "Link");
  await dialog.getByLabel("Post content").fill("Worth a read: https://example.com/article.");
  await expect(dialog.getByText("A preview of example.com will be attached to your post.")).toBeVisible();
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  const link = postCard(page, "Worth a read").getByRole("link", { name: "https://example.com/article" });
  await expect(link).toHaveAttribute("href", "https://example.com/article");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow ugc");
});

test("like, save and share: counts and states persist; share copies the link", async ({ page, context }) => {
  const community = await createCommunity("Reactions");
  const post = await createPost(ownerApi, community, { content: `Reactions ${uniqueSuffix()}` });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  // Desktop Chromium on Linux has no share sheet; make sure the copy path is the one taken.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  await signInPage(page, member);
  await page.goto(`/community/${community.slug}`);
  const card = postCard(page, post.content);
  const like = card.getByRole("button", { name: /^Like/ });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(like).toHaveAccessibleName("Like 1");
  await page.reload();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(like).toHaveAccessibleName("Like 1");
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect(like).toHaveAccessibleName("Like");
  await page.reload();
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect(like).toHaveAccessibleName("Like");

  const save = card.getByRole("button", { name: /^Save/ });
  await expect(save).toHaveAttribute("aria-pressed", "false");
  await save.click();
  await expect(save).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(save).toHaveAttribute("aria-pressed", "true");
  const saved = await memberApi.get("/api/me/saved");
  expect(((await saved.json()) as { items: Post[] }).items.map((p) => p.id)).toContain(post.id);

  await card.getByRole("button", { name: "Share" }).click();
  await expect(page.getByText(MSG.linkCopied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/post/${post.id}`);
  await expect
    .poll(
      async () =>
        ((await (await ownerApi.get(`/api/posts/${post.id}`)).json()) as { post: { share_count: number } }).post
          .share_count,
    )
    .toBe(1);

  // Comments link to the post's own page.
  await expect(card.getByRole("link", { name: /^Comments/ })).toHaveAttribute("href", `/post/${post.id}`);
});

test("the post menu: the author edits, owners pin, warn and delete; members report what others wrote", async ({
  page,
}) => {
  const community = await createCommunity("Moderation");
  const oldest = await createPost(ownerApi, community, { content: `Oldest post ${uniqueSuffix()}` });
  const byMember = await createPost(memberApi, community, { content: `Member post ${uniqueSuffix()}` });
  const newest = await createPost(ownerApi, community, { content: `Newest post ${uniqueSuffix()}` });

  // A member: Edit and Delete on their own post, only Report on the owner's.
  await signInPage(page, member);
  await page.goto(`/community/${community.slug}`);
  await postCard(page, newest.content).getByRole("button", { name: "Post options" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Report Post"]);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menuitem")).toHaveCount(0);
  await postCard(page, byMember.content).getByRole("button", { name: "Post options" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Edit Post", "Delete Post"]);
  await page.getByRole("menuitem", { name: "Edit Post" }).click();
  const edit = page.getByRole("dialog", { name: "Edit post" });
  await edit.getByLabel("Post content").fill(`${byMember.content} (edited text)`);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByText("Post updated.")).toBeVisible();
  const edited = postCard(page, "(edited text)");
  await expect(edited.getByText("edited", { exact: true })).toBeVisible();
  await expect(postCard(page, byMember.content).getByRole("button", { name: "Post options" })).toBeFocused();

  // The owner: pin moves the oldest post to the top.
  await page.context().clearCookies();
  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}`);
  await expect(page.getByRole("article").first()).toContainText(newest.content);
  await postCard(page, oldest.content).getByRole("button", { name: "Post options" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Edit Post", "Pin Post", "Delete Post"]);
  await page.getByRole("menuitem", { name: "Pin Post" }).click();
  await expect(page.getByText("Post pinned to the top of the feed.")).toBeVisible();
  await expect(page.getByRole("article").first()).toContainText(oldest.content);
  await expect(page.getByRole("article").first().getByText("Pinned", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("article").first()).toContainText(oldest.content);
  await postCard(page, oldest.content).getByRole("button", { name: "Post options" }).click();
  await page.getByRole("menuitem", { name: "Unpin Post" }).click();
  await expect(page.getByText("Post unpinned.")).toBeVisible();
  await expect(page.getByRole("article").first()).toContainText(newest.content);

  // Warn the member about their post.
  await postCard(page, byMember.content).getByRole("button", { name: "Post options" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Pin Post", "Warn User", "Report Post", "Delete Post"]);
  await page.getByRole("menuitem", { name: "Warn User" }).click();
  const warn = page.getByRole("dialog", { name: `Warn ${member.name}` });
  await warn.getByLabel("Reason").fill("Please keep promotions in the Promotions category.");
  await warn.getByRole("button", { name: "Send warning" }).click();
  await expect(warn).toHaveCount(0);
  await expect(page.getByText(`Warning sent to ${member.name}.`)).toBeVisible();

  // Delete the member's post: confirm, gone, and still gone after a reload.
  await postCard(page, byMember.content).getByRole("button", { name: "Post options" }).click();
  await page.getByRole("menuitem", { name: "Delete Post" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this post?" });
  await confirm.getByRole("button", { name: "Delete Post" }).click();
  await expect(page.getByText("Post deleted.")).toBeVisible();
  await expect(postCard(page, byMember.content)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(postCard(page, byMember.content)).toHaveCount(0);
  await expect(page.getByRole("article")).toHaveCount(2);
});

test("markup and scripts in a post show as text", async ({ page }) => {
  const community = await createCommunity("Safety");
  const payload =
    `<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script> ` +
    `<a href="javascript:window.__xss=3">click</a> javascript:alert(1) https://example.com/ok`;
  await createPost(ownerApi, community, { content: payload });
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signInPage(page, member);
  await page.goto(`/community/${community.slug}`);
  const card = page.getByRole("article").first();
  await expect(card).toContainText(payload);
  await expect(card.locator('img[src="x"], script')).toHaveCount(0);
  await expect(card.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(card.getByRole("link", { name: "https://example.com/ok" })).toHaveAttribute(
    "href",
    "https://example.com/ok",
  );
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("with moderation on, a member's new post shows as pending to them, without like or share", async ({ page }) => {
  const community = await createCommunity("Moderated");
  const patched = await ownerApi.patch(`/api/communities/${community.id}`, { data: { moderation_enabled: true } });
  expect(patched.status(), await patched.text()).toBe(200);
  await signInPage(page, member);
  await page.goto(`/community/${community.slug}`);
  const dialog = await openComposer(page);
  await dialog.getByLabel("Post content").fill("Waiting for a moderator");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(page.getByText("Your post was sent for approval.", { exact: false })).toBeVisible();
  const card = postCard(page, "Waiting for a moderator");
  await expect(card.getByText("Pending approval")).toBeVisible();
  await expect(card.getByRole("button", { name: /^Like/ })).toBeDisabled();
  await expect(card.getByRole("button", { name: "Share" })).toBeDisabled();
});

test("a signed-out visitor is asked to sign in to like, save or vote", async ({ page }) => {
  const community = await createCommunity("Visitors");
  const post = await createPost(ownerApi, community, {
    type: "poll",
    content: `Visitor poll ${uniqueSuffix()}`,
    poll: { options: ["Yes", "No"], duration_hours: 1 },
  });
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, post.content);
  await card.getByRole("button", { name: /^Like/ }).click();
  const auth = page.getByRole("dialog", { name: "Welcome back" });
  await expect(auth.getByText("Sign in to like posts.")).toBeVisible();
  await page.keyboard.press("Escape");
  await card.getByRole("button", { name: "Yes" }).click();
  await expect(auth.getByText("Sign in to vote in this poll.")).toBeVisible();
  await page.keyboard.press("Escape");
  await card.getByRole("button", { name: /^Save/ }).click();
  await expect(auth.getByText("Sign in to save posts.")).toBeVisible();
});

test("the feed with every post type and the composer have no WCAG A/AA violations", async ({ page }) => {
  const community = await createCommunity("Accessible");
  const upload = async (color: string) => {
    const res = await ownerApi.post(`/api/communities/${community.id}/media`, {
      multipart: { file: { name: "p.png", mimeType: "image/png", buffer: await png(color) } },
    });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { url: string; variants: { medium: string; thumbnail: string } };
    return { url: body.url, medium: body.variants.medium, thumbnail: body.variants.thumbnail };
  };
  const images = await Promise.all(["#ea580c", "#0f766e", "#7c3aed", "#be123c", "#1d4ed8"].map(upload));
  await createPost(ownerApi, community, { content: "Plain text\nwith https://example.com/a link" });
  await createPost(ownerApi, community, { type: "image", content: "Images", images });
  await createPost(ownerApi, community, { type: "video", content: "Video", video_url: "https://example.com/clip.mp4" });
  const voted = await createPost(ownerApi, community, {
    type: "poll",
    content: "Voted poll",
    poll: { options: ["A", "B"], duration_hours: 24 },
  });
  await ownerApi.post(`/api/posts/${voted.id}/vote`, { data: { option_index: 0 } });
  await createPost(ownerApi, community, {
    type: "poll",
    content: "Open poll",
    poll: { options: ["C", "D"], duration_hours: 0 },
  });
  await createPost(ownerApi, community, { type: "link", content: "Link https://example.com/b" });
  const pinned = await createPost(ownerApi, community, { content: "Pinned for members", visibility: "members" });
  await ownerApi.post(`/api/posts/${pinned.id}/pin`, { data: { pinned: true } });
  const liked = await createPost(memberApi, community, { content: "Liked and saved" });
  await ownerApi.post(`/api/posts/${liked.id}/like`);
  await ownerApi.post(`/api/posts/${liked.id}/save`);

  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}`);
  await expect(page.getByRole("article")).toHaveCount(8);
  await expect(postCard(page, "Video").locator("video")).toHaveAttribute("src", "https://example.com/clip.mp4");
  await expectNoViolations(page, "the feed with every post type");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoViolations(page, "the feed with every post type on a phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  const dialog = await openComposer(page);
  await expectNoViolations(page, "the composer (text)");
  await chooseType(dialog, "Poll");
  await expectNoViolations(page, "the composer (poll)");
  await chooseType(dialog, "Image");
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: "a.png", mimeType: "image/png", buffer: await png("#0f766e") });
  await expect(dialog.getByRole("progressbar")).toHaveCount(0, { timeout: 20_000 });
  await expectNoViolations(page, "the composer (images)");
  await page.keyboard.press("Escape");

  await postCard(page, "Images").getByRole("button", { name: "View image 1 of 5" }).click();
  await expect(page.getByRole("dialog", { name: /Images from/ })).toBeVisible();
  await expectNoViolations(page, "the image viewer");
});
