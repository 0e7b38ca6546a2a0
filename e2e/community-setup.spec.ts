import { type APIRequestContext, type Page, expect, request, test } from "@playwright/test";
import sharp from "sharp";
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

const ICON_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#c2410c"/><circle cx="32" cy="32" r="14" fill="#fed7aa"/></svg>`,
);

const coverPng = () =>
  sharp({ create: { width: 1084, height: 576, channels: 3, background: "#ea580c" } })
    .png()
    .toBuffer();

/** A signed-in API session (cookies kept by the context), as a second browser would have. */
async function apiSession(user: TestUser): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const res = await context.post("/api/auth/sign-in/email", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

async function createCommunity(owner: APIRequestContext, name = `Hearth ${uniqueSuffix()}`) {
  const res = await owner.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return { name, ...((await res.json()) as { id: string; slug: string }) };
}

async function acceptInvite(user: TestUser, code: string) {
  const session = await apiSession(user);
  const res = await session.post(`/api/invites/${code}/accept`);
  expect(res.status(), await res.text()).toBe(200);
  await session.dispose();
}

async function signInOnPage(page: Page, user: TestUser) {
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);
}

const settingsDialog = (page: Page) => page.getByRole("dialog", { name: "Community settings" });
const checklistProgress = (page: Page) => page.locator("#checklist-progress");

test("a new owner creates a community and completes onboarding on the setup page", async ({ page }) => {
  test.setTimeout(120_000);
  const owner = await createConfirmedUser("owner");
  await signInOnPage(page, owner);

  // Create through the header's Create Community dialog; it leads to the setup page.
  const name = `Sketch ${uniqueSuffix()}`;
  await header(page).getByRole("button", { name: "Create Community" }).click();
  const create = page.getByRole("dialog", { name: "Create a community" });
  await create.getByLabel("Community name").fill(name);
  await create.getByRole("button", { name: "Create community" }).click();
  await expect(page).toHaveURL(/\/community\/[a-z0-9-]+\/setup$/);
  const slug = new URL(page.url()).pathname.split("/")[2];

  await expect(page.getByRole("heading", { level: 1, name: `Set up ${name}` })).toBeVisible();
  await expect(checklistProgress(page)).toHaveText("0 of 4 done");
  const steps = page.getByRole("heading", { level: 3 });
  await expect(steps).toHaveText([
    /Invite 3 people/,
    /Add group description/,
    /Add icon & cover image/,
    /Write your first post/,
  ]);
  await expect(page.getByRole("link", { name: "Go to community" })).toHaveAttribute("href", `/community/${slug}`);
  await expectNoViolations(page, "the setup page");

  // Description: the task's button opens the settings dialog on General.
  await page.getByRole("button", { name: "Add description" }).click();
  const dialog = settingsDialog(page);
  await expect(dialog.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
  await dialog.getByLabel("Description").fill("A friendly place to share sketches, every Sunday.");
  await expect(dialog.getByText("49/150")).toBeVisible();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Settings saved.")).toBeVisible();
  // Success messages vanish after 3 s (SPEC §9).
  await expect(dialog.getByText("Settings saved.")).toBeHidden({ timeout: 5_000 });
  await expectNoViolations(page, "the settings dialog, General tab");

  // Icon: anything but SVG is refused in the browser; then an SVG is saved.
  const iconInput = dialog.getByLabel("Choose an icon (SVG)");
  await iconInput.setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: await coverPng() });
  await expect(dialog.getByText("Icon must be an SVG file", { exact: true })).toBeVisible();
  await iconInput.setInputFiles({ name: "icon.svg", mimeType: "image/svg+xml", buffer: ICON_SVG });
  await expect(dialog.getByText("Icon saved.")).toBeVisible();
  await expect(dialog.getByText("Icon must be an SVG file")).toHaveCount(0);

  // Cover: a PNG, with the recommended size hinted.
  await expect(dialog.getByText("Recommended 1084x576", { exact: false })).toBeVisible();
  await dialog.getByLabel("Choose a cover image").setInputFiles({
    name: "cover.png",
    mimeType: "image/png",
    buffer: await coverPng(),
  });
  await expect(dialog.getByText("Cover saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  await expect(checklistProgress(page)).toHaveText("2 of 4 done");
  await expect(page.getByRole("heading", { name: /Step 2, done: Add group description/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Step 3, done: Add icon & cover image/ })).toBeVisible();
  // The preview card shows the new pictures, served from /media.
  const preview = page.getByRole("complementary", { name: "Preview" });
  await expect(preview.locator("img")).toHaveCount(2);

  // First post, from the composer on the page.
  await page.getByRole("button", { name: "Write post" }).click();
  await page.getByLabel("Post content").fill("Welcome, everyone! Share one sketch from this week.");
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(checklistProgress(page)).toHaveText("3 of 4 done");
  await expect(page.getByRole("heading", { name: /Step 4, done: Write your first post/ })).toBeVisible();

  // Three people accept the invite link shown inline; the page notices on its own and moves on.
  const link = await page.getByLabel("Invite link").inputValue();
  expect(link).toMatch(new RegExp(`^${BASE_URL}/invite/[A-Za-z0-9_-]+$`));
  const code = link.split("/invite/")[1];
  const guests = await Promise.all([
    createConfirmedUser("guest"),
    createConfirmedUser("guest"),
    createConfirmedUser("guest"),
  ]);
  await acceptInvite(guests[0], code);
  await expect(page.getByText("1 of 3 joined through your link")).toBeVisible({ timeout: 20_000 });
  await acceptInvite(guests[1], code);
  await acceptInvite(guests[2], code);

  await expect(page).toHaveURL(new RegExp(`/community/${slug}$`), { timeout: 25_000 });
  await expect(page.getByText(/Onboarding complete/)).toBeVisible();

  // Finished: the setup page now always leads to the community.
  await page.goto(`/community/${slug}/setup`);
  await expect(page).toHaveURL(new RegExp(`/community/${slug}$`));
});

test("only owners and admins see the setup page: a member goes to the community, a visitor home", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const member = await createConfirmedUser("member");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  const view = (await (await ownerApi.get(`/api/communities/${community.id}`)).json()) as { invite_code: string };
  await ownerApi.dispose();
  await acceptInvite(member, view.invite_code);

  // Anonymous: home.
  await page.goto(`/community/${community.slug}/setup`);
  await expect(page).toHaveURL(`${BASE_URL}/`);

  // A member: the community page.
  await logIn(page, member.email, member.password);
  await expectSignedIn(page);
  await page.goto(`/community/${community.slug}/setup`);
  await expect(page).toHaveURL(`${BASE_URL}/community/${community.slug}`);
  await expect(page.getByRole("heading", { name: /^Set up/ })).toHaveCount(0);
});

test("a private community's setup page sends a non-member to its gate", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const stranger = await createConfirmedUser("stranger");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  const res = await ownerApi.patch(`/api/communities/${community.id}`, { data: { visibility: "private" } });
  expect(res.status(), await res.text()).toBe(200);
  await ownerApi.dispose();

  await signInOnPage(page, stranger);
  await page.goto(`/community/${community.slug}/setup`);
  await expect(page).toHaveURL(`${BASE_URL}/community/${community.slug}`);
  await expect(page.getByText("This community is private. You need an invitation to join.")).toBeVisible();
});

test("settings dialog: a rule and a category are saved and still there after a reload", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  await ownerApi.dispose();
  await signInOnPage(page, owner);
  await page.goto(`/community/${community.slug}/setup`);

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = settingsDialog(page);
  await expect(dialog.getByRole("tab", { name: "Dashboard" })).toHaveAttribute("aria-selected", "true");
  // Real figures: the owner is the one member, active now.
  const dashboard = dialog.getByRole("tabpanel", { name: "Dashboard" });
  await expect(dashboard.getByText("Members", { exact: true })).toBeVisible();
  await expect(
    dashboard.getByRole("img", { name: /New members per day over the last 30 days: 1 in total/ }),
  ).toBeVisible();
  await expectNoViolations(page, "the settings dialog, Dashboard tab");

  await dialog.getByRole("tab", { name: "Rules" }).click();
  await expect(dialog.getByText("No rules yet")).toBeVisible();
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await dialog.getByLabel("Rule 1", { exact: true }).fill("Be kind and generous with feedback");
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await dialog.getByLabel("Rule 2", { exact: true }).fill("No spam");
  // Reorder: "No spam" first.
  await dialog.getByRole("button", { name: "Move rule 2 up" }).click();
  await expect(dialog.getByLabel("Rule 1", { exact: true })).toHaveValue("No spam");
  await dialog.getByRole("button", { name: "Save rules" }).click();
  await expect(dialog.getByText("Rules saved.")).toBeVisible();

  await dialog.getByRole("tab", { name: "Categories" }).click();
  await dialog.getByRole("button", { name: "Add category" }).click();
  await dialog.getByLabel("Category 1 name").fill("Introductions");
  await dialog.getByLabel("Emoji for category 1").fill("👋");
  await expect(dialog.getByRole("group", { name: "Preview of the category tabs" })).toContainText("Introductions");
  await dialog.getByRole("button", { name: "Save categories" }).click();
  await expect(dialog.getByText("Categories saved.")).toBeVisible();
  await expectNoViolations(page, "the settings dialog, Categories tab");

  // A blank rule is refused in the form, with nothing sent.
  await dialog.getByRole("tab", { name: "Rules" }).click();
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await dialog.getByRole("button", { name: "Save rules" }).click();
  await expect(dialog.getByText("A rule cannot be empty")).toBeVisible();
  await dialog.getByRole("button", { name: "Remove rule 3" }).click();

  // Discovery: a tagline.
  await dialog.getByRole("tab", { name: "Discovery" }).click();
  await dialog.getByLabel("Tagline").fill("Draw every Sunday");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Discovery settings saved.")).toBeVisible();
  await expectNoViolations(page, "the settings dialog, Discovery tab");

  await page.reload();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await dialog.getByRole("tab", { name: "Rules" }).click();
  await expect(dialog.getByLabel("Rule 1", { exact: true })).toHaveValue("No spam");
  await expect(dialog.getByLabel("Rule 2", { exact: true })).toHaveValue("Be kind and generous with feedback");
  await expect(dialog.getByLabel("Rule 3", { exact: true })).toHaveCount(0);
  await dialog.getByRole("tab", { name: "Categories" }).click();
  await expect(dialog.getByLabel("Category 1 name")).toHaveValue("Introductions");
  await expect(dialog.getByLabel("Emoji for category 1")).toHaveValue("👋");
  await dialog.getByRole("tab", { name: "Discovery" }).click();
  await expect(dialog.getByLabel("Tagline")).toHaveValue("Draw every Sunday");
  // The composer on the setup page offers the new category.
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByLabel("Category", { exact: true }).click();
  await expect(page.getByRole("option", { name: "👋 Introductions" })).toBeVisible();
});

test("settings dialog: a failed save says so, closing with unsaved changes asks first", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  await ownerApi.dispose();
  await signInOnPage(page, owner);
  await page.goto(`/community/${community.slug}/setup`);
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = settingsDialog(page);

  await dialog.getByRole("tab", { name: "Tabs" }).click();
  await dialog.getByRole("switch", { name: "Map" }).click();
  await page.route(`**/api/communities/${community.id}`, (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({ status: 500, json: { error: { code: "INTERNAL", message: "boom" } } })
      : route.fallback(),
  );
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Failed to save settings. Please try again.")).toBeVisible();
  await page.unroute(`**/api/communities/${community.id}`);

  await dialog.getByRole("button", { name: "Close" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Keep editing" }).click();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Tabs saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // Pricing: a paid tier needs a monthly price.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await dialog.getByRole("tab", { name: "Pricing" }).click();
  await dialog.getByRole("button", { name: "Add tier" }).click();
  const tier = dialog.getByRole("listitem", { name: "Tier 1" });
  await tier.getByLabel("Name").fill("Members");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(tier.getByText("A paid tier needs a monthly price")).toBeVisible();
  await tier.getByLabel("Monthly price").fill("9.5");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Pricing saved.")).toBeVisible();
});

test("an admin runs the setup page and settings too, without the owner's delete", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const admin = await createConfirmedUser("admin");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  const view = (await (await ownerApi.get(`/api/communities/${community.id}`)).json()) as { invite_code: string };
  await acceptInvite(admin, view.invite_code);
  const adminApi = await apiSession(admin);
  const me = (await (await adminApi.get("/api/me")).json()) as { user: { id: string } };
  await adminApi.dispose();
  const promoted = await ownerApi.patch(`/api/communities/${community.id}/members/${me.user.id}`, {
    data: { role: "admin" },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
  await ownerApi.dispose();

  await signInOnPage(page, admin);
  await page.goto(`/community/${community.slug}/setup`);
  await expect(page.getByRole("heading", { level: 1, name: `Set up ${community.name}` })).toBeVisible();
  // One of three invite joins so far (the admin's own).
  await expect(page.getByText("1 of 3 joined through your link")).toBeVisible();

  await page.getByRole("button", { name: "Upload images" }).click();
  const dialog = settingsDialog(page);
  await expect(dialog.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("button", { name: "Upload icon" })).toBeInViewport();
  await expect(dialog.getByRole("button", { name: "Delete community" })).toHaveCount(0);

  // Invite tab: copy, regenerate (after a confirmation), turn off.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  await dialog.getByRole("tab", { name: "Invite" }).click();
  const linkField = dialog.getByRole("textbox", { name: "Invite link" });
  const oldLink = await linkField.inputValue();
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByText("Link copied to clipboard!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldLink);

  await dialog.getByRole("button", { name: "Regenerate link" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Regenerate the invite link?" });
  await confirm.getByRole("button", { name: "Regenerate link" }).click();
  await expect(dialog.getByText("A new invite link is ready.", { exact: false })).toBeVisible();
  await expect(linkField).not.toHaveValue(oldLink);
  const newCode = (await linkField.inputValue()).split("/invite/")[1];

  await dialog.getByRole("switch", { name: "Allow joining with the invite link" }).click();
  await expect(dialog.getByText("Invite link turned off.")).toBeVisible();
  await expect(dialog.getByText("The invite link is turned off: nobody can join through it.")).toBeVisible();
  const late = await apiSession(await createConfirmedUser("late"));
  const refused = await late.post(`/api/invites/${newCode}/accept`);
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("Invites are disabled for this community");
  await late.dispose();
});

test("the owner deletes the community after typing its name, and lands home", async ({ page }) => {
  const owner = await createConfirmedUser("owner");
  const ownerApi = await apiSession(owner);
  const community = await createCommunity(ownerApi);
  await signInOnPage(page, owner);
  await page.goto(`/community/${community.slug}/setup`);
  await page.getByRole("button", { name: "Add description" }).click();
  const dialog = settingsDialog(page);
  await dialog.getByRole("button", { name: "Delete community" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${community.name}?` });
  const remove = confirm.getByRole("button", { name: "Delete community" });
  await expect(remove).toBeDisabled();
  await confirm.getByLabel(`Type ${community.name} to confirm`).fill("something else");
  await expect(remove).toBeDisabled();
  await confirm.getByLabel(`Type ${community.name} to confirm`).fill(community.name);
  await remove.click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(page.getByText(`${community.name} was deleted.`)).toBeVisible();
  expect((await ownerApi.get(`/api/communities/${community.id}`)).status()).toBe(404);
  await ownerApi.dispose();
});
