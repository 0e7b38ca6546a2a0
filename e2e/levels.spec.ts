import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import { COURSE_MESSAGES } from "../src/shared/courses";
import { LEVEL_MESSAGES } from "../src/shared/levels";
import { JOIN_MESSAGES } from "../src/shared/membership";
import { type TestUser, apiFor, createConfirmedUser, header, uniqueSuffix } from "./helpers";

// Levels and join requests end to end (issue 20): a member's posts are liked in another browser
// until they reach level 2, and their open page shows the new level and the level-up in the bell
// without a reload; a course unlocked at level 2 shows its lock to a member at level 1 and opens
// once likes lift them there; an applicant answers a community's questions and an admin approves
// them in the Admin tab, after which the applicant is a member. Data is made through the API.

test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };

/** Level names the owner chose (Settings → Levels), so the texts show a name beside the number. */
const NAMES = ["Newcomer", "Regular", "Insider", "Helper", "Expert", "Leader", "Mentor", "Guide", "Legend"];

async function createCommunity(api: APIRequestContext, prefix: string): Promise<Community> {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const community = { ...((await res.json()) as { id: string; slug: string }), name };
  const levels = await api.put(`/api/communities/${community.id}/levels`, { data: { names: NAMES } });
  expect(levels.status(), await levels.text()).toBe(200);
  return community;
}

async function join(api: APIRequestContext, community: Community) {
  const res = await api.post(`/api/communities/${community.id}/join`);
  expect(res.ok(), await res.text()).toBe(true);
}

async function createPost(api: APIRequestContext, community: Community, content: string): Promise<string> {
  const res = await api.post(`/api/communities/${community.id}/posts`, { data: { content } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A page of a browser already signed in through the API. */
async function signedInPage(browser: Browser, api: APIRequestContext) {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  await context.addCookies((await api.storageState()).cookies);
  return { context, page: await context.newPage() };
}

const bell = (page: Page) => header(page).getByRole("button", { name: /^Notifications/ });
const dropdown = (page: Page) => page.getByRole("dialog", { name: "Notifications" });
const progress = (page: Page) => page.getByRole("progressbar", { name: "Progress to the next level" });
const levelUpTitle = (level: number, community: Community) =>
  LEVEL_MESSAGES.levelUp(level, NAMES[level - 1], community.name);

test("a member earns points from another member's likes and sees the level change live", async ({ browser }) => {
  test.setTimeout(90_000);
  const owner = await createConfirmedUser("lvlown");
  const author = await createConfirmedUser("lvlaut");
  const fan = await createConfirmedUser("lvlfan");
  const ownerApi = await apiFor(owner);
  const authorApi = await apiFor(author);
  const fanApi = await apiFor(fan);
  const community = await createCommunity(ownerApi, "Levels");
  await join(authorApi, community);
  await join(fanApi, community);
  const posts: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const content = `Progress note ${i} ${uniqueSuffix()}`;
    await createPost(authorApi, community, content);
    posts.push(content);
  }

  // The author watches their standing on the Leaderboards tab: level 1, five points to go.
  const { context: authorContext, page } = await signedInPage(browser, authorApi);
  await page.goto(`/community/${community.slug}?tab=leaderboards`);
  await expect(progress(page)).toHaveAttribute("aria-valuetext", "Level 1 (Newcomer) · 5 points to level 2");
  await expect(page.getByText("Level 1 (Newcomer) · 5 points to level 2")).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications");

  // The fan likes the five posts in their own browser.
  const { context: fanContext, page: fanPage } = await signedInPage(browser, fanApi);
  await fanPage.goto(`/community/${community.slug}`);
  for (const content of posts) {
    const card = fanPage.getByRole("article").filter({ hasText: content });
    await card.getByRole("button", { name: /Like/ }).click();
    await expect(card.getByRole("button", { name: /Like/ })).toHaveAttribute("aria-pressed", "true");
  }
  // The fan sees the author's new level on their posts (after the feed reads it again).
  await fanPage.reload();
  const authored = fanPage.getByRole("article").filter({ hasText: posts[0] });
  await expect(authored.getByRole("img", { name: "Level 2 (Regular)" })).toBeVisible();

  // No reload on the author's page: the level-up arrives in the bell, and the progress moves on.
  await expect(bell(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/, { timeout: 20_000 });
  await bell(page).click();
  await expect(
    dropdown(page).getByRole("link", { name: new RegExp(escapeRegExp(levelUpTitle(2, community))) }),
  ).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Escape");
  await expect(page.getByText("Level 2 (Regular) · 15 points to level 3")).toBeVisible();
  await expect(progress(page)).toHaveAttribute("aria-valuetext", "Level 2 (Regular) · 15 points to level 3");
  await expect(page.getByText("5 points in this community")).toBeVisible();
  // The ladder marks the author's rung.
  const rung = (level: number) =>
    page
      .getByRole("region", { name: "Levels" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("img", { name: `Level ${level} (${NAMES[level - 1]})` }) });
  await expect(rung(2)).toHaveAttribute("aria-current", "true");
  await expect(rung(1)).not.toHaveAttribute("aria-current", "true");

  await authorContext.close();
  await fanContext.close();
  for (const api of [ownerApi, authorApi, fanApi]) await api.dispose();
});

test("a course unlocked at level 2 shows its lock, then opens once likes lift the member there", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const owner = await createConfirmedUser("lcrown");
  const learner = await createConfirmedUser("lcrlrn");
  const fan = await createConfirmedUser("lcrfan");
  const ownerApi = await apiFor(owner);
  const learnerApi = await apiFor(learner);
  const fanApi = await apiFor(fan);
  const community = await createCommunity(ownerApi, "Unlocks");
  await join(learnerApi, community);
  await join(fanApi, community);

  const title = `Second steps ${uniqueSuffix()}`;
  const created = await ownerApi.post(`/api/communities/${community.id}/courses`, {
    data: { title, description: "For members who reached level 2.", access: "level", unlock_level: 2 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const detail = (await created.json()) as { course: { id: string }; modules: { id: string }[] };
  const lesson = await ownerApi.post(`/api/modules/${detail.modules[0].id}/lessons`, {
    data: { title: "Where to go next", video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
  });
  expect(lesson.status(), await lesson.text()).toBe(201);
  const published = await ownerApi.patch(`/api/courses/${detail.course.id}`, { data: { status: "published" } });
  expect(published.status(), await published.text()).toBe(200);

  // Level 1: the card shows what unlocks it, the lesson is locked.
  const lockText = LEVEL_MESSAGES.courseLocked(2, "Regular");
  const { context, page } = await signedInPage(browser, learnerApi);
  await page.goto(`/community/${community.slug}?tab=courses`);
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await expect(card.getByText(lockText)).toBeVisible();
  await expect(card.getByText("You are at level 1 of 2")).toBeVisible();
  await card.getByRole("link", { name: COURSE_MESSAGES.previewCourse }).click();
  await expect(page.getByRole("heading", { name: "This lesson is locked" })).toBeVisible();
  await expect(page.getByText(`${lockText}. ${COURSE_MESSAGES.levelLocked}`)).toBeVisible();
  await expect(page.getByTitle("YouTube video: Where to go next")).toHaveCount(0);
  // The server refuses it too, not only the page.
  const refused = await learnerApi.post(`/api/lessons/${await firstLessonId(ownerApi, detail.course.id)}/complete`);
  expect(refused.status()).toBe(403);

  // Five likes from another member on the learner's posts.
  const posts: string[] = [];
  for (let i = 1; i <= 5; i++) posts.push(await createPost(learnerApi, community, `Question ${i} ${uniqueSuffix()}`));
  for (const id of posts) {
    const liked = await fanApi.post(`/api/posts/${id}/like`);
    expect(liked.ok(), await liked.text()).toBe(true);
  }
  // The points are counted with the likes: level 2 (the live bell is the first journey's).
  await expect
    .poll(async () => {
      const res = await learnerApi.get(`/api/communities/${community.id}/leaderboard?period=all`);
      return ((await res.json()) as { viewer_level: { level: number } | null }).viewer_level?.level;
    })
    .toBe(2);

  // The course opens: the card no longer shows a lock and the lesson plays.
  await page.goto(`/community/${community.slug}?tab=courses`);
  await expect(card.getByRole("heading", { name: title })).toBeVisible();
  await expect(card.getByText("You are at level 1 of 2")).toHaveCount(0);
  await card.getByRole("link", { name: COURSE_MESSAGES.startCourse }).click();
  await expect(page.getByTitle("YouTube video: Where to go next")).toBeVisible();
  await expect(page.getByRole("heading", { name: "This lesson is locked" })).toHaveCount(0);
  await page.getByRole("button", { name: COURSE_MESSAGES.markComplete }).click();
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();

  await context.close();
  for (const api of [ownerApi, learnerApi, fanApi]) await api.dispose();
});

async function firstLessonId(api: APIRequestContext, courseId: string): Promise<string> {
  const res = await api.get(`/api/courses/${courseId}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { modules: { lessons: { id: string }[] }[] };
  return body.modules[0].lessons[0].id;
}

test("an applicant answers the questions and an admin approves them", async ({ browser }) => {
  test.setTimeout(90_000);
  const owner: TestUser = await createConfirmedUser("reqown");
  const applicant = await createConfirmedUser("reqapp");
  const ownerApi = await apiFor(owner);
  const applicantApi = await apiFor(applicant);
  const community = await createCommunity(ownerApi, "Requests");
  const questions = ["What do you hope to learn here?", "What are you working on?"];
  const settings = await ownerApi.patch(`/api/communities/${community.id}/membership`, {
    data: { join_policy: "request", questions },
  });
  expect(settings.status(), await settings.text()).toBe(200);

  // The applicant: JOIN opens the questions; every answer is needed.
  const { context, page } = await signedInPage(browser, applicantApi);
  await page.goto(`/community/${community.slug}`);
  const aside = page.getByRole("complementary", { name: `Join ${community.name}` });
  await aside.getByRole("button", { name: /JOIN/ }).click();
  const dialog = page.getByRole("dialog", { name: `Ask to join ${community.name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(questions[0]).fill("How to run a small <b>studio</b> well.");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(dialog.getByText(JOIN_MESSAGES.answerRequired)).toBeVisible();
  await dialog.getByLabel(questions[1]).fill("A series of linocut prints.");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(dialog).toBeHidden();
  await expect(aside.getByText(JOIN_MESSAGES.pendingTitle)).toBeVisible();
  await expect(aside.getByText(JOIN_MESSAGES.pendingBody)).toBeVisible();
  // Not a member yet: no member tabs.
  await expect(page.getByRole("tab", { name: "Community" })).toHaveCount(0);

  // The owner: Admin tab → Requests, the answers as text, Approve.
  const { context: ownerContext, page: ownerPage } = await signedInPage(browser, ownerApi);
  await ownerPage.goto(`/community/${community.slug}?tab=admin`);
  const requests = ownerPage.getByRole("region", { name: "Requests" });
  await expect(requests.getByText("1 waiting")).toBeVisible();
  await expect(requests.getByText(applicant.name)).toBeVisible();
  await expect(requests.getByText(questions[0])).toBeVisible();
  // Shown as typed, never as markup.
  await expect(requests.getByText("How to run a small <b>studio</b> well.")).toBeVisible();
  await expect(requests.getByText("A series of linocut prints.")).toBeVisible();
  await requests.getByRole("button", { name: `Approve ${applicant.name}` }).click();
  await expect(requests.getByText("No requests waiting.")).toBeVisible();
  await expect(requests.getByText("0 waiting")).toBeVisible();

  // The applicant hears of it live, and the community opens to them as a member.
  const approved = JOIN_MESSAGES.approvedTitle(community.name);
  await expect(bell(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/, { timeout: 20_000 });
  await bell(page).click();
  const note = dropdown(page).getByRole("link", { name: new RegExp(escapeRegExp(approved)) });
  await expect(note).toBeVisible();
  await note.click();
  await expect(page.getByRole("tab", { name: "Community" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Write something..." })).toBeVisible();
  await expect(page.getByText(JOIN_MESSAGES.pendingTitle)).toHaveCount(0);

  await context.close();
  await ownerContext.close();
  await ownerApi.dispose();
  await applicantApi.dispose();
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
