import { readFileSync } from "node:fs";
import { type APIRequestContext, type Locator, type Page, expect, test } from "@playwright/test";
import sharp from "sharp";
import { COURSE_MESSAGES } from "../src/shared/courses";
import { PAYMENT_MESSAGES } from "../src/shared/payments";
import { UPLOAD_MESSAGES } from "../src/shared/uploads";
import { type TestUser, apiFor, createConfirmedUser, expectNoViolations, uniqueSuffix, signInPage } from "./helpers";

// Courses end to end: an owner builds one in the browser (a YouTube lesson, an uploaded clip, a
// second module, reordering, publishing); a member takes one from 'Start Course' to 'Review
// Course', by Mark Complete and by watching a clip to its end; a paid course is locked until the
// simulated card form buys it; drafts stay with owners; axe finds nothing on the tab or the page.

test.use({ contextOptions: { reducedMotion: "reduce" } });

/** A 1.2-second VP8 WebM (320×180), shared with the uploads journeys. */
const CLIP = readFileSync(new URL("./fixtures/clip.webm", import.meta.url));
const YOUTUBE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

type Community = { id: string; slug: string; name: string };
type CourseDetail = {
  course: { id: string; title: string };
  modules: { id: string; title: string; lessons: { id: string; title: string }[] }[];
};

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let ownerApi: APIRequestContext;
let memberApi: APIRequestContext;
let community: Community;

/** A course made through the API: lessons in its first module, published unless told otherwise. */
async function courseViaApi(
  title: string,
  lessons: { title: string; video_url: string; is_preview?: boolean; duration_minutes?: number }[],
  { price = 0, publish = true }: { price?: number; publish?: boolean } = {},
): Promise<CourseDetail> {
  const res = await ownerApi.post(`/api/communities/${community.id}/courses`, {
    data: { title, description: `${title}: a course made for the e2e journeys.`, price },
  });
  expect(res.status(), await res.text()).toBe(201);
  let detail = (await res.json()) as CourseDetail;
  for (const lesson of lessons) {
    const added = await ownerApi.post(`/api/modules/${detail.modules[0].id}/lessons`, { data: lesson });
    expect(added.status(), await added.text()).toBe(201);
    detail = (await added.json()) as CourseDetail;
  }
  if (publish) {
    const published = await ownerApi.patch(`/api/courses/${detail.course.id}`, { data: { status: "published" } });
    expect(published.status(), await published.text()).toBe(200);
  }
  return detail;
}

/** The clip uploaded as course media of the community. */
async function uploadClip(): Promise<string> {
  const res = await ownerApi.post("/api/upload", {
    multipart: {
      communityId: community.id,
      uploadType: "courses",
      file: { name: "clip.webm", mimeType: "video/webm", buffer: CLIP },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

const coursesTab = (page: Page) => page.goto(`/community/${community.slug}?tab=courses`);
const courseCard = (page: Page, title: string) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const outline = (page: Page) => page.getByRole("navigation", { name: "Course content" });
const lessonLink = (page: Page, title: string) => outline(page).getByRole("link", { name: new RegExp(`^${title}`) });

/** The titles of the outline's lessons, in order. */
const outlineLessons = (page: Page) =>
  outline(page)
    .getByRole("link")
    .evaluateAll((links) => links.map((l) => l.querySelector("span > span")?.textContent ?? ""));

async function expectCardButton(card: Locator, label: string, percent: number) {
  await expect(card.getByRole("link", { name: label, exact: true })).toBeVisible();
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", String(percent));
  await expect(card.getByText(`${percent}% complete`)).toBeVisible();
}

test.beforeAll(async () => {
  owner = await createConfirmedUser("crsown");
  member = await createConfirmedUser("crsmem");
  ownerApi = await apiFor(owner);
  memberApi = await apiFor(member);
  const name = `Course Hall ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  community = { ...((await res.json()) as { id: string; slug: string }), name };
  const joined = await memberApi.post(`/api/communities/${community.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);
  // An admin, who builds courses as the owner does (SPEC §6).
  admin = await createConfirmedUser("crsadm");
  const adminApi = await apiFor(admin);
  expect((await adminApi.post(`/api/communities/${community.id}/join`)).ok()).toBe(true);
  const adminId = ((await (await adminApi.get("/api/me")).json()) as { user: { id: string } }).user.id;
  await adminApi.dispose();
  const promoted = await ownerApi.patch(`/api/communities/${community.id}/members/${adminId}`, {
    data: { role: "admin" },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
});

test.afterAll(async () => {
  await ownerApi?.dispose();
  await memberApi?.dispose();
});

test("an admin creates a course, adds a YouTube lesson, an uploaded clip and a module, reorders and publishes it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInPage(page, admin);
  await coursesTab(page);
  await expect(page.getByRole("heading", { name: "No courses yet" })).toBeVisible();

  // Create course: required fields first, then the spec's message and the new course's page.
  await page.getByRole("button", { name: "Create course" }).click();
  const create = page.getByRole("dialog", { name: "Create course" });
  await create.getByRole("button", { name: "Create course" }).click();
  await expect(create.getByText(COURSE_MESSAGES.titleRequired)).toBeVisible();
  await expect(create.getByText(COURSE_MESSAGES.descriptionRequired)).toBeVisible();
  await create.getByLabel("Title").fill("Watercolor foundations");
  await create.getByLabel("Description").fill("Paper, pigments and your first washes.");
  await create.getByLabel("Sold separately").check();
  await create.getByLabel("Price (USD)").fill("-1");
  await create.getByRole("button", { name: "Create course" }).click();
  await expect(create.getByText(COURSE_MESSAGES.priceInvalid)).toBeVisible();
  await create.getByLabel("Everyone in the community").check();
  await create.getByRole("button", { name: "Create course" }).click();
  await expect(page.getByText(COURSE_MESSAGES.created, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/community/${community.slug}/course/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Watercolor foundations" })).toBeVisible();
  await expect(page.getByText("Draft", { exact: true })).toBeVisible();
  await expect(outline(page).getByRole("heading", { name: "Module 1: Introduction" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No lessons yet" })).toBeVisible();

  // A YouTube lesson: Add lesson stays disabled until there is a title and a video.
  await outline(page).getByRole("button", { name: "Add lesson to Module 1: Introduction" }).click();
  let dialog = page.getByRole("dialog", { name: "Add lesson" });
  const submit = dialog.getByRole("button", { name: "Add lesson", exact: true });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel("Title").fill("Choosing paper");
  await expect(submit).toBeDisabled();
  await dialog.getByLabel("Video URL").fill("https://example.com/not-a-video");
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(dialog.getByText(COURSE_MESSAGES.videoUnsupported)).toBeVisible();
  await dialog.getByLabel("Video URL").fill(YOUTUBE);
  await dialog.getByLabel("Description").fill("Cold press, hot press and rough.");
  await dialog.getByLabel("Duration (minutes)").fill("12");
  await dialog.getByRole("button", { name: "Add resource" }).click();
  await dialog.getByLabel("Resource 1 title").fill("Paper checklist");
  await dialog.getByLabel("Resource 1 link").fill("https://example.com/paper-checklist.pdf");
  await submit.click();
  await expect(dialog).toHaveCount(0);
  await expect(lessonLink(page, "Choosing paper")).toContainText("12 min");
  const player = page.getByTitle("YouTube video: Choosing paper");
  await expect(player).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
  const resource = page.getByRole("link", { name: /Paper checklist/ });
  await expect(resource).toHaveAttribute("href", "https://example.com/paper-checklist.pdf");
  await expect(resource).toHaveAttribute("target", "_blank");
  await expect(resource).toHaveAttribute("rel", "noopener noreferrer");

  // An uploaded clip: the browser refuses what is not a video, and one over 500MB.
  await outline(page).getByRole("button", { name: "Add lesson to Module 1: Introduction" }).click();
  dialog = page.getByRole("dialog", { name: "Add lesson" });
  await dialog.getByLabel("Title").fill("First wash");
  await dialog.getByText("Upload a file").click();
  await expect(dialog.getByRole("button", { name: "Add lesson", exact: true })).toBeDisabled();
  const picker = dialog.getByLabel("Upload video");
  await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a video") });
  await expect(dialog.getByText(UPLOAD_MESSAGES.pleaseUploadVideo)).toBeVisible();
  await picker.evaluate((input: HTMLInputElement) => {
    const file = new File([new Uint8Array(64)], "feature-film.mp4", { type: "video/mp4" });
    const transfer = new DataTransfer();
    transfer.items.add(file);
    Object.defineProperty(transfer.files[0], "size", { value: 500 * 1024 * 1024 + 1 });
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await expect(dialog.getByText(UPLOAD_MESSAGES.videoTooLarge)).toBeVisible();
  await picker.setInputFiles({ name: "clip.webm", mimeType: "video/webm", buffer: CLIP });
  await expect(dialog.getByText(/clip\.webm.*uploaded/)).toBeVisible();
  await dialog.getByLabel("Free preview").check();
  await dialog.getByRole("button", { name: "Add lesson", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await lessonLink(page, "First wash").click();
  await expect(page).toHaveURL(/\?lesson=[0-9a-f-]{36}$/);
  await expect(page.getByLabel("Video: First wash")).toHaveAttribute(
    "src",
    new RegExp(`^/media/community-assets/${community.id}/courses/.+\\.webm$`),
  );
  await expect(lessonLink(page, "First wash")).toContainText("Free preview");

  // A second module with a lesson.
  await outline(page).getByRole("button", { name: "Add module" }).click();
  const addModule = page.getByRole("dialog", { name: "Add module" });
  await addModule.getByLabel("Module title").fill("Module 2: Practice");
  await addModule.getByRole("button", { name: "Add module" }).click();
  await expect(addModule).toHaveCount(0);
  await outline(page).getByRole("button", { name: "Add lesson to Module 2: Practice" }).click();
  dialog = page.getByRole("dialog", { name: "Add lesson" });
  await dialog.getByLabel("Title").fill("Skies and gradients");
  await dialog.getByLabel("Video URL").fill("https://vimeo.com/76979871");
  await dialog.getByRole("button", { name: "Add lesson", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => outlineLessons(page)).toEqual(["Choosing paper", "First wash", "Skies and gradients"]);

  // Reordering with the arrows: modules, then lessons.
  await outline(page).getByRole("button", { name: "Edit outline" }).click();
  await outline(page).getByRole("button", { name: "Move Module 2: Practice up" }).click();
  await expect.poll(() => outlineLessons(page)).toEqual(["Skies and gradients", "Choosing paper", "First wash"]);
  await expect(outline(page).getByRole("button", { name: "Move Module 2: Practice down" })).toBeFocused();
  await outline(page).getByRole("button", { name: "Move Module 2: Practice down" }).click();
  await outline(page).getByRole("button", { name: "Move First wash up" }).click();
  await expect.poll(() => outlineLessons(page)).toEqual(["First wash", "Choosing paper", "Skies and gradients"]);

  // Rename a module; edit a lesson.
  await outline(page).getByRole("button", { name: "Rename Module 2: Practice" }).click();
  const editModule = page.getByRole("dialog", { name: "Edit module" });
  await editModule.getByLabel("Module title").fill("Module 2: Practice pieces");
  await editModule.getByRole("button", { name: "Save module" }).click();
  await expect(outline(page).getByRole("heading", { name: "Module 2: Practice pieces" })).toBeVisible();
  await outline(page).getByRole("button", { name: "Edit Skies and gradients" }).click();
  const editLesson = page.getByRole("dialog", { name: "Edit lesson" });
  await expect(editLesson.getByLabel("Video URL")).toHaveValue("https://vimeo.com/76979871");
  await editLesson.getByLabel("Duration (minutes)").fill("7");
  await editLesson.getByRole("button", { name: "Save lesson" }).click();
  await expect(editLesson).toHaveCount(0);
  await expect(lessonLink(page, "Skies and gradients")).toContainText("7 min");
  await outline(page).getByRole("button", { name: "Done" }).click();

  // The reload keeps it all (the order came from the server).
  await page.reload();
  await expect.poll(() => outlineLessons(page)).toEqual(["First wash", "Choosing paper", "Skies and gradients"]);

  // Publish: the draft badge goes, and the member sees the course.
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("button", { name: "Unpublish" })).toBeVisible();
  await expect(page.getByText("Draft", { exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: `Back to ${community.name} · Courses` }).click();
  const card = courseCard(page, "Watercolor foundations");
  await expect(card.getByText("3 lessons")).toBeVisible();
  await expect(card.getByText("Free", { exact: true })).toBeVisible();
  await expectCardButton(card, COURSE_MESSAGES.startCourse, 0);

  const list = await memberApi.get(`/api/communities/${community.id}/courses`);
  const titles = ((await list.json()) as { items: { title: string }[] }).items.map((c) => c.title);
  expect(titles).toContain("Watercolor foundations");
});

test("a failed create shows the server's words or 'Failed to create course'", async ({ page }) => {
  await signInPage(page, owner);
  await coursesTab(page);
  await page.route(`**/api/communities/${community.id}/courses`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 500, json: { error: { code: "INTERNAL", message: "boom" } } })
      : route.continue(),
  );
  await page.getByRole("button", { name: "Create course" }).first().click();
  const create = page.getByRole("dialog", { name: "Create course" });
  await create.getByLabel("Title").fill("Never made");
  await create.getByLabel("Description").fill("The server says no.");
  await create.getByRole("button", { name: "Create course" }).click();
  await expect(create.getByRole("alert")).toHaveText(COURSE_MESSAGES.createFailed);

  // A refusal the person can act on reads as the server wrote it.
  await page.unroute(`**/api/communities/${community.id}/courses`);
  await page.route(`**/api/communities/${community.id}/courses`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 403, json: { error: { code: "FORBIDDEN", message: "Insufficient permissions" } } })
      : route.continue(),
  );
  await create.getByRole("button", { name: "Create course" }).click();
  await expect(create.getByRole("alert")).toHaveText("Insufficient permissions");
  await page.unroute(`**/api/communities/${community.id}/courses`);
});

test("an owner deletes a lesson, a module and then the course, each after a confirmation", async ({ page }) => {
  const title = `Short-lived ${uniqueSuffix()}`;
  const detail = await courseViaApi(title, [
    { title: "Keep me", video_url: YOUTUBE },
    { title: "Drop me", video_url: YOUTUBE },
  ]);
  const extra = await ownerApi.post(`/api/courses/${detail.course.id}/modules`, { data: { title: "Spare module" } });
  expect(extra.status(), await extra.text()).toBe(201);

  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}/course/${detail.course.id}`);
  await lessonLink(page, "Drop me").click();
  await page.getByRole("button", { name: "Delete lesson" }).click();
  let confirm = page.getByRole("alertdialog", { name: "Delete Drop me?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(lessonLink(page, "Drop me")).toBeVisible();
  await page.getByRole("button", { name: "Delete lesson" }).click();
  confirm = page.getByRole("alertdialog", { name: "Delete Drop me?" });
  await confirm.getByRole("button", { name: "Delete lesson" }).click();
  await expect(lessonLink(page, "Drop me")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: "Keep me" })).toBeVisible();

  await outline(page).getByRole("button", { name: "Edit outline" }).click();
  await outline(page).getByRole("button", { name: "Delete Spare module" }).click();
  await page
    .getByRole("alertdialog", { name: "Delete Spare module?" })
    .getByRole("button", { name: "Delete module" })
    .click();
  await expect(outline(page).getByRole("heading", { name: "Spare module" })).toHaveCount(0);

  await page.getByRole("button", { name: "Delete course" }).click();
  await page
    .getByRole("alertdialog", { name: `Delete ${title}?` })
    .getByRole("button", { name: "Delete course" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/community/${community.slug}\\?tab=courses$`));
  await expect(page.getByRole("heading", { name: "Courses", exact: true })).toBeVisible();
  await expect(courseCard(page, title)).toHaveCount(0);
  const gone = await ownerApi.get(`/api/courses/${detail.course.id}`);
  expect(gone.status()).toBe(404);
});

test("a member takes a course: Start Course, then Continue, then Review Course", async ({ page }) => {
  test.setTimeout(90_000);
  const clip = await uploadClip();
  const title = `Brush basics ${uniqueSuffix()}`;
  await courseViaApi(title, [
    { title: "Holding the brush", video_url: YOUTUBE, duration_minutes: 5 },
    { title: "A clip to watch", video_url: clip, duration_minutes: 1 },
  ]);
  const draft = `Unfinished ${uniqueSuffix()}`;
  await courseViaApi(draft, [], { publish: false });

  await signInPage(page, member);
  await coursesTab(page);
  const card = courseCard(page, title);
  await expectCardButton(card, COURSE_MESSAGES.startCourse, 0);
  // Drafts stay with owners and admins.
  await expect(courseCard(page, draft)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create course" })).toHaveCount(0);

  await card.getByRole("link", { name: COURSE_MESSAGES.startCourse }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Holding the brush" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  await page.getByRole("button", { name: COURSE_MESSAGES.markComplete }).click();
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(page.getByText("50% complete")).toBeVisible();
  await expect(lessonLink(page, "Holding the brush")).toContainText("(completed)");

  await page.getByRole("link", { name: `Back to ${community.name} · Courses` }).click();
  await expectCardButton(courseCard(page, title), COURSE_MESSAGES.continueCourse, 50);

  // Continue opens the next lesson not done yet; the clip completes itself once watched.
  await courseCard(page, title).getByRole("link", { name: COURSE_MESSAGES.continueCourse }).click();
  await expect(page.getByRole("heading", { level: 2, name: "A clip to watch" })).toBeVisible();
  const completed = page.waitForResponse(
    (r) => r.url().includes("/api/lessons/") && r.url().endsWith("/complete") && r.status() === 200,
  );
  await page.getByLabel("Video: A clip to watch").evaluate(async (video: HTMLVideoElement) => {
    video.muted = true;
    await video.play();
  });
  await completed;
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(page.getByText("100% complete")).toBeVisible();

  // Previous / Next move through the lessons and keep the choice in the URL.
  await page.getByRole("link", { name: /Previous/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Holding the brush" })).toBeVisible();
  await page.getByRole("link", { name: /Next/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "A clip to watch" })).toBeVisible();

  await page.getByRole("link", { name: `Back to ${community.name} · Courses` }).click();
  await expectCardButton(courseCard(page, title), COURSE_MESSAGES.reviewCourse, 100);
});

test("a paid course is locked until the member buys it through the simulated card form", async ({ page }) => {
  test.setTimeout(90_000);
  const title = `Portrait masterclass ${uniqueSuffix()}`;
  await courseViaApi(
    title,
    [
      { title: "Welcome and materials", video_url: YOUTUBE, is_preview: true },
      { title: "Proportions of the face", video_url: "https://youtu.be/aqz-KE-bpKQ", duration_minutes: 25 },
    ],
    { price: 49 },
  );

  await signInPage(page, member);
  await coursesTab(page);
  const card = courseCard(page, title);
  await expect(card.getByText("$49")).toBeVisible();
  await card.getByRole("link", { name: COURSE_MESSAGES.previewCourse }).click();

  // The free preview plays; the other lesson is locked.
  await expect(page.getByTitle("YouTube video: Welcome and materials")).toBeVisible();
  await expect(lessonLink(page, "Welcome and materials")).toContainText("Free preview");
  await expect(lessonLink(page, "Proportions of the face")).toContainText("(locked)");
  await lessonLink(page, "Proportions of the face").click();
  await expect(page.getByRole("heading", { name: "This lesson is locked" })).toBeVisible();
  await expect(page.getByText(COURSE_MESSAGES.locked)).toBeVisible();
  await expect(page.getByRole("button", { name: COURSE_MESSAGES.markComplete })).toHaveCount(0);

  // No card detail ever leaves the page.
  const sent: string[] = [];
  page.on("request", (r) => sent.push(`${r.url()} ${r.postData() ?? ""}`));

  await page.getByRole("button", { name: "Buy this course for $49" }).first().click();
  const buy = page.getByRole("dialog", { name: "Buy this course" });
  await buy.getByRole("button", { name: "Continue to payment" }).click();

  // The checkout page: the simulated card form, then the wait for the confirmation.
  await expect(page).toHaveURL(/\/billing\/checkout\//);
  await expect(page.getByRole("region", { name: "Order summary" }).getByText(title)).toBeVisible();
  await expect(page.getByText("This is a simulated checkout.")).toBeVisible();
  await expect(page.getByText(/No real charge is made/)).toBeVisible();
  await page.getByRole("button", { name: "Pay $49" }).click();
  await expect(page.getByText("Please enter your card number")).toBeVisible();
  await expect(page.getByText("Please enter the expiry date", { exact: true })).toBeVisible();
  await expect(page.getByText("Please enter the CVC")).toBeVisible();
  await expect(page.getByText("Please enter the name on the card")).toBeVisible();
  await expect(page.getByLabel("Card number")).toBeFocused();

  await page.getByLabel("Card number").pressSequentially("4242424242424242");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").pressSequentially("1299");
  await expect(page.getByLabel("Expiry (MM/YY)")).toHaveValue("12/99");
  await page.getByLabel("CVC").pressSequentially("12a3");
  await expect(page.getByLabel("CVC")).toHaveValue("123");
  await page.getByLabel("Name on card").fill("Mia Member");
  await page.getByRole("button", { name: "Pay $49" }).click();
  await expect(page.getByRole("button", { name: "Processing payment…" })).toBeDisabled();
  // The simulated provider confirms at once: the "Confirming your payment…" wait may last only a
  // moment, so the journey checks where it ends (the confirmation and the course), not the wait.
  await expect(page.getByText(PAYMENT_MESSAGES.confirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/course\/[^/]+$/);
  await lessonLink(page, "Proportions of the face").click();

  // Unlocked: the lesson plays and can be completed.
  await expect(page.getByRole("heading", { name: "This lesson is locked" })).toHaveCount(0);
  await expect(page.getByTitle("YouTube video: Proportions of the face")).toBeVisible();
  await expect(lessonLink(page, "Proportions of the face")).not.toContainText("(locked)");
  await page.getByRole("button", { name: COURSE_MESSAGES.markComplete }).click();
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Buy this course/ })).toHaveCount(0);

  for (const line of sent) {
    expect(line).not.toContain("4242");
    expect(line).not.toContain("Mia Member");
  }
  const paid = sent.find((l) => l.includes("/simulated-payment"));
  expect(paid?.trim().endsWith("/simulated-payment")).toBe(true);

  // A visitor who is not a member is asked to join.
  await page.context().clearCookies();
  await page.reload();
  await lessonLink(page, "Proportions of the face").click();
  await expect(page.getByText(`Join ${community.name} to take this course.`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Join the community" })).toHaveAttribute(
    "href",
    `/community/${community.slug}`,
  );
});

test("the Courses tab, the course page and its dialogs have no WCAG A/AA violations", async ({ page }) => {
  test.setTimeout(90_000);
  const clip = await uploadClip();
  const title = `Accessible art ${uniqueSuffix()}`;
  await courseViaApi(
    title,
    [
      { title: "A clip first", video_url: clip, duration_minutes: 3, is_preview: true },
      { title: "Locked for now", video_url: YOUTUBE, duration_minutes: 10 },
    ],
    { price: 19.5 },
  );
  await courseViaApi(`Still a draft ${uniqueSuffix()}`, [], { publish: false });

  // The owner: cards with a draft, the create dialog, the page with its authoring controls.
  await signInPage(page, owner);
  await coursesTab(page);
  await expect(courseCard(page, title)).toBeVisible();
  await expectNoViolations(page, "Courses tab (owner)");
  await page.getByRole("button", { name: "Create course" }).click();
  await expect(page.getByRole("dialog", { name: "Create course" })).toBeVisible();
  await expectNoViolations(page, "the create-course dialog");
  await page.keyboard.press("Escape");

  await courseCard(page, title).getByRole("link", { name: COURSE_MESSAGES.startCourse }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByLabel("Video: A clip first")).toBeVisible();
  await outline(page).getByRole("button", { name: "Edit outline" }).click();
  await expectNoViolations(page, "course page (owner, editing the outline)");
  await outline(page)
    .getByRole("button", { name: /^Add lesson to/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Add lesson" });
  await dialog.getByRole("button", { name: "Add resource" }).click();
  await expectNoViolations(page, "the add-lesson dialog");
  await dialog.getByText("Upload a file").click();
  await expect(dialog.getByLabel("Upload video")).toBeAttached();
  await expectNoViolations(page, "the add-lesson dialog (upload)");
  await page.keyboard.press("Escape");

  // The member: cards, the lock panel, the card form.
  await page.context().clearCookies();
  await signInPage(page, member);
  await coursesTab(page);
  await expect(courseCard(page, title)).toBeVisible();
  await expectNoViolations(page, "Courses tab (member)");
  await courseCard(page, title).getByRole("link", { name: COURSE_MESSAGES.previewCourse }).click();
  await lessonLink(page, "Locked for now").click();
  await expect(page.getByRole("heading", { name: "This lesson is locked" })).toBeVisible();
  await expectNoViolations(page, "course page (member, locked lesson)");
  await page.getByRole("button", { name: "Buy this course for $19.50" }).first().click();
  const buy = page.getByRole("dialog", { name: "Buy this course" });
  await expect(buy.getByRole("button", { name: "Continue to payment" })).toBeVisible();
  await expectNoViolations(page, "the Buy this course dialog");
  await buy.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\//);
  await page.getByRole("button", { name: "Pay $19.50" }).click();
  await expect(page.getByText("Please enter your card number")).toBeVisible();
  await expectNoViolations(page, "the checkout page's card form with errors");
});

test("an owner gives a course a thumbnail, which the course card shows", async ({ page }) => {
  const detail = await courseViaApi(`Thumbnail course ${uniqueSuffix()}`, [
    { title: "Only lesson", video_url: YOUTUBE },
  ]);
  const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#c2410c" } })
    .png()
    .toBuffer();
  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}/course/${detail.course.id}`);
  await page.getByRole("button", { name: "Edit course", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit course" });
  await dialog
    .getByLabel("Thumbnail (optional)")
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  const preview = dialog.getByRole("img", { name: "Course thumbnail" });
  await expect(preview).toHaveAttribute("src", /\/courses\/[0-9a-f-]{36}-medium\.webp$/);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);

  await coursesTab(page);
  const card = page.getByRole("article", { name: detail.course.title });
  const img = card.locator("img").first();
  await expect(img).toHaveAttribute("src", /-medium\.webp$/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);
});
