import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { MSG } from "../src/shared/messages";
import { PAYMENT_MESSAGES } from "../src/shared/payments";
import {
  BASE_URL,
  type TestUser,
  apiFor,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  header,
  uniqueSuffix,
  signInPage,
} from "./helpers";

// The community page: landing and JOIN, member home and its tabs, leaving, roles, the private gate,
// not found, paid join, the composer and a #post- deep link. Data is made through the API here, so
// the journeys do not depend on the demo seed.

// Transitions finished at once: axe then judges colors as they settle, not mid-fade.
test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };

let owner: TestUser;
let visitor: TestUser;
let ownerApi: APIRequestContext;
let visitorApi: APIRequestContext;
let open: Community;
let hidden: Community;
let paid: Community;

async function createCommunity(api: APIRequestContext, prefix: string, settings: object = {}): Promise<Community> {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { id: string; slug: string };
  const patch = await api.patch(`/api/communities/${created.id}`, {
    data: {
      description: `${name} is where e2e journeys meet.\nSecond line of the description.`,
      tagline: "Tests that read like stories",
      ...settings,
    },
  });
  expect(patch.status(), await patch.text()).toBe(200);
  return { ...created, name };
}

const tabs = (page: Page) => page.getByRole("tablist", { name: "Community sections" });
const sidebar = (page: Page, c: Community) => page.getByRole("complementary", { name: `About ${c.name}` });
const landingCard = (page: Page, c: Community) => page.getByRole("complementary", { name: `Join ${c.name}` });

/** The Members figure of a side card. */
async function memberCount(page: Page, region: ReturnType<typeof sidebar>) {
  const figure = region.locator("dl > div").filter({ has: page.locator("dt", { hasText: /^Members?$/ }) });
  await expect(figure).toHaveCount(1);
  return Number(await figure.locator("dd").textContent());
}

test.beforeAll(async () => {
  owner = await createConfirmedUser("cowner");
  visitor = await createConfirmedUser("cvisit");
  ownerApi = await apiFor(owner);
  visitorApi = await apiFor(visitor);
  open = await createCommunity(ownerApi, "Open Hearth", {
    category: "technology",
    rules: ["Be kind", "Stay on topic"],
  });
  const categories = await ownerApi.put(`/api/communities/${open.id}/categories`, {
    data: {
      categories: [
        { name: "General", emoji: "💬" },
        { name: "Wins", emoji: "🏆" },
      ],
    },
  });
  expect(categories.ok(), await categories.text()).toBe(true);
  hidden = await createCommunity(ownerApi, "Quiet Room", { visibility: "private" });
  paid = await createCommunity(ownerApi, "Premium Den", { type: "paid", price: 49 });
});

test.afterAll(async () => {
  await ownerApi?.dispose();
  await visitorApi?.dispose();
});

test("a visitor logs in from JOIN, joins a public community, sees the tabs, and leaves again", async ({ page }) => {
  await page.goto(`/community/${open.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: open.name })).toBeVisible();
  await expect(page.getByText("Tests that read like stories").first()).toBeVisible();
  const card = landingCard(page, open);
  expect(await memberCount(page, card)).toBe(1);
  await expect(tabs(page)).toHaveCount(0);

  // Anonymous JOIN asks to log in first, then comes back here.
  await card.getByRole("button", { name: "JOIN FREE" }).click();
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await expect(dialog.getByText("Log in to join this community.")).toBeVisible();
  await dialog.getByLabel("Email").fill(visitor.email);
  await dialog.getByLabel("Password", { exact: true }).fill(visitor.password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expectSignedIn(page);
  await expect(page).toHaveURL(new RegExp(`/community/${open.slug}$`));

  await landingCard(page, open).getByRole("button", { name: "JOIN FREE" }).click();
  await expect(page.getByText(`Welcome to ${open.name}!`)).toBeVisible();
  await expect(tabs(page)).toBeVisible();
  for (const name of ["Community", "Courses", "Members", "Map", "Leaderboards", "About"]) {
    await expect(tabs(page).getByRole("tab", { name })).toBeVisible();
  }
  await expect(tabs(page).getByRole("tab", { name: "Admin" })).toHaveCount(0);
  const side = sidebar(page, open);
  expect(await memberCount(page, side)).toBe(2);
  await expect(side.getByText("Your role")).toBeVisible();
  await expect(side.getByText("Member", { exact: true })).toBeVisible();
  await expect(side.getByRole("button", { name: "SETTINGS" })).toHaveCount(0);

  // The tab is in the URL and survives a reload.
  await tabs(page).getByRole("tab", { name: "About" }).click();
  await expect(page).toHaveURL(/\?tab=about$/);
  await page.reload();
  await expect(tabs(page).getByRole("tab", { name: "About" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Community rules" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Stay on topic" })).toBeVisible();

  await sidebar(page, open).getByRole("button", { name: "Leave Community" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Leave ${open.name}?` });
  await confirm.getByRole("button", { name: "Leave Community" }).click();
  await expect(page.getByText(`You left ${open.name}.`)).toBeVisible();
  await expect(tabs(page)).toHaveCount(0);
  expect(await memberCount(page, landingCard(page, open))).toBe(1);
});

test("the only owner is not offered Leave Community, and the server refuses it (SPEC §2, §4)", async ({ page }) => {
  await signInPage(page, owner);
  await page.goto(`/community/${open.slug}`);
  const side = sidebar(page, open);
  await expect(side.getByText("Owner", { exact: true })).toBeVisible();
  await expect(side.getByRole("button", { name: "SETTINGS" })).toBeVisible();
  await expect(side.getByRole("button", { name: "Leave Community" })).toHaveCount(0);
  const refused = await ownerApi.post(`/api/communities/${open.id}/leave`);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(MSG.onlyOwnerCannotLeave);
});

test("the owner promotes a member to moderator in the Members tab, and it persists", async ({ page }) => {
  const joined = await visitorApi.post(`/api/communities/${open.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);

  await signInPage(page, owner);
  await page.goto(`/community/${open.slug}?tab=members`);
  await expect(tabs(page).getByRole("tab", { name: "Members" })).toHaveAttribute("aria-selected", "true");
  const table = page.getByRole("table", { name: `Members of ${open.name} and their roles` });
  // The owner's own row is locked; the visitor's has a role select built from the rules.
  const ownRow = table.getByRole("row").filter({ hasText: "(you)" });
  await expect(ownRow.getByRole("combobox")).toHaveCount(0);
  const roleSelect = table.getByRole("combobox", { name: `Role of ${visitor.name}` });
  await expect(roleSelect).toHaveText("Member");
  await roleSelect.click();
  await expect(page.getByRole("option", { name: "Guest" })).toHaveCount(0);
  await page.getByRole("option", { name: "Moderator" }).click();
  await expect(page.getByText(`${visitor.name} is now a Moderator.`)).toBeVisible();

  await page.reload();
  await expect(
    page
      .getByRole("table", { name: `Members of ${open.name} and their roles` })
      .getByRole("combobox", { name: `Role of ${visitor.name}` }),
  ).toHaveText("Moderator");
  const res = await ownerApi.get(`/api/communities/${open.id}/members?role=moderator`);
  const body = (await res.json()) as { items: { username: string }[] };
  expect(body.items.map((m) => m.username)).toContain(visitor.username);

  // Search and role filter narrow the table.
  await page.getByLabel("Search members").fill(visitor.username);
  await expect(table.getByRole("row")).toHaveCount(2);

  // Back to member for the other journeys.
  const reset = await ownerApi.patch(`/api/communities/${open.id}/members/${await userIdOf(visitor)}`, {
    data: { role: "member" },
  });
  expect(reset.ok()).toBe(true);
  await visitorApi.post(`/api/communities/${open.id}/leave`);
});

test("the owner bans a member from the table, the ban holds, and Lift ban lets them back", async ({ page }) => {
  const joined = await visitorApi.post(`/api/communities/${open.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);

  await signInPage(page, owner);
  await page.goto(`/community/${open.slug}?tab=members`);
  const table = page.getByRole("table", { name: `Members of ${open.name} and their roles` });
  await expect(table.getByRole("row").filter({ hasText: "(you)" }).getByRole("button")).toHaveCount(0);
  await table.getByRole("button", { name: `More actions for ${visitor.name}` }).click();
  await page.getByRole("menuitem", { name: "Remove and ban" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Remove and ban ${visitor.name}?` });
  await confirm.getByLabel("Reason").fill("Spam links");
  await confirm.getByRole("button", { name: "Remove and ban" }).click();
  await expect(page.getByText(`${visitor.name} was removed and banned.`)).toBeVisible();
  await expect(table.getByText(visitor.name)).toHaveCount(0);

  const refused = await visitorApi.post(`/api/communities/${open.id}/join`);
  expect(refused.status()).toBe(403);

  await page.getByRole("tablist", { name: "Community sections" }).getByRole("tab", { name: "Admin" }).click();
  const bans = page.getByRole("region", { name: "Banned members" });
  await expect(bans.getByText(visitor.name)).toBeVisible();
  await expect(bans.getByText("Spam links")).toBeVisible();
  await bans.getByRole("button", { name: `Lift ban for ${visitor.name}` }).click();
  await expect(bans.getByText("No one is banned.")).toBeVisible();

  const again = await visitorApi.post(`/api/communities/${open.id}/join`);
  expect(again.ok(), await again.text()).toBe(true);
  await visitorApi.post(`/api/communities/${open.id}/leave`);
});

async function userIdOf(user: TestUser): Promise<string> {
  const res = await ownerApi.get(`/api/communities/${open.id}/members?q=${user.username}`);
  const body = (await res.json()) as { items: { user_id: string; username: string }[] };
  const found = body.items.find((m) => m.username === user.username);
  if (!found) throw new Error(`${user.username} is not a member`);
  return found.user_id;
}

test("a private community shows the gate to visitors and non-members", async ({ page }) => {
  await page.goto(`/community/${hidden.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: MSG.privateCommunityTitle })).toBeVisible();
  await expect(page.getByText(MSG.privateCommunityBody)).toBeVisible();
  await expect(page.getByText(hidden.name)).toHaveCount(0);
  await expectNoViolations(page, "the private gate (anonymous)");
  await page.getByRole("button", { name: "Sign in to continue" }).click();
  await expect(page.getByRole("dialog", { name: "Welcome back" })).toBeVisible();
  await page.keyboard.press("Escape");

  await signInPage(page, visitor);
  await page.goto(`/community/${hidden.id}`);
  await expect(page.getByRole("heading", { level: 1, name: MSG.privateCommunityTitle })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in to continue" })).toHaveCount(0);
  await expectNoViolations(page, "the private gate (signed in)");

  // Its owner gets in.
  await page.context().clearCookies();
  await signInPage(page, owner);
  await page.goto(`/community/${hidden.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: hidden.name })).toBeVisible();
  await expect(sidebar(page, hidden).getByText("Owner", { exact: true })).toBeVisible();
});

test("an unknown community is not found", async ({ page }) => {
  await page.goto(`/community/no-such-community-${uniqueSuffix()}`);
  await expect(page.getByRole("heading", { level: 1, name: MSG.communityNotFoundTitle })).toBeVisible();
  await expect(page.getByText(MSG.communityNotFoundBody)).toBeVisible();
  await expectNoViolations(page, "community not found");
  await page.getByRole("link", { name: "Browse communities" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
});

test("joining a paid community: the plan chooser, the card form, the wait, then the member home", async ({ page }) => {
  await signInPage(page, visitor);
  await page.goto(`/community/${paid.slug}`);
  const card = landingCard(page, paid);
  await card.getByRole("button", { name: "JOIN $49/month" }).click();
  const chooser = page.getByRole("dialog", { name: "Choose your plan" });
  await expect(chooser.getByText("$49/month")).toBeVisible();
  await chooser.getByRole("button", { name: /^Choose / }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\//);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Visitor Test");
  await page.getByRole("button", { name: "Pay $49" }).click();
  // The simulated provider confirms at once, so its "Confirming your payment…" wait may last only
  // a moment: the journey checks where it ends.
  await expect(page.getByText(PAYMENT_MESSAGES.confirmed)).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/community/${paid.slug}`);
  await expect(tabs(page)).toBeVisible();
  const side = sidebar(page, paid);
  await expect(side.getByText("Premium Community")).toBeVisible();
  await expect(side.getByRole("link", { name: "Your plan and billing" })).toBeVisible();
  expect(await memberCount(page, side)).toBe(2);
});

test("the owner writes a post from the composer; a #post- link scrolls to it", async ({ page }) => {
  await signInPage(page, owner);
  await page.goto(`/community/${open.slug}`);
  await expect(page.getByText("No posts yet")).toBeVisible();
  await page.getByRole("button", { name: "Write something..." }).click();
  const dialog = page.getByRole("dialog", { name: "Create post" });
  const content = dialog.getByLabel("Post content");
  await expect(content).toBeFocused();
  await content.fill("   \n  ");
  await expect(dialog.getByRole("button", { name: "Post" })).toBeDisabled();
  await content.fill("Hello from the e2e owner.\nA second line.");
  await dialog.getByLabel("Category").click();
  await page.getByRole("option", { name: "🏆 Wins" }).click();
  await dialog.getByLabel("Who can see it").click();
  await page.getByRole("option", { name: "Members only" }).click();
  await dialog.getByRole("button", { name: "Post" }).click();
  await expect(dialog).toHaveCount(0);
  const post = page.getByRole("article").filter({ hasText: "Hello from the e2e owner." });
  await expect(post).toBeVisible();
  await expect(post.getByText("Wins")).toBeVisible();
  await expect(post.getByText("Members only")).toBeVisible();
  await expect(post.getByText("just now")).toBeVisible();

  // Category filter.
  const filters = page.getByRole("group", { name: "Filter posts by category" });
  await filters.getByRole("button", { name: "General" }).click();
  await expect(page.getByText("No posts in General yet")).toBeVisible();
  await filters.getByRole("button", { name: "All posts" }).click();
  await expect(post).toBeVisible();

  // Enough posts to push the first one below the fold, then the notification-style link.
  const postId = (await post.getAttribute("id"))!.replace(/^post-/, "");
  for (let i = 1; i <= 6; i += 1) {
    const res = await ownerApi.post(`/api/communities/${open.id}/posts`, {
      data: { content: `Filler post ${i}\n\nwith\nseveral\nlines` },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto(`/community/${open.id}#post-${postId}`);
  const linked = page.locator(`#post-${postId}`);
  await expect(linked).toBeInViewport();
  await expect(linked).toBeFocused();
  await expect(linked).toHaveAttribute("aria-current", "location");
});

test("landing, member home tabs and the gate have no WCAG A/AA violations", async ({ page }) => {
  await page.goto(`/community/${open.slug}`);
  await expect(landingCard(page, open).getByRole("button", { name: "JOIN FREE" })).toBeVisible();
  await expectNoViolations(page, "community landing");

  await signInPage(page, owner);
  await page.goto(`/community/${open.slug}`);
  const expectations: Record<string, () => Promise<void>> = {
    Community: () => expect(page.getByRole("button", { name: "Write something..." })).toBeVisible(),
    Courses: () => expect(page.getByRole("heading", { name: "No courses yet" })).toBeVisible(),
    Members: () => expect(page.getByRole("table")).toBeVisible(),
    Map: () => expect(page.getByRole("heading", { name: "Map coming soon" })).toBeVisible(),
    Leaderboards: () => expect(page.getByText("No likes yet in this period")).toBeVisible(),
    About: () => expect(page.getByRole("heading", { name: "Community rules" })).toBeVisible(),
    Admin: () => expect(page.getByText("Total members")).toBeVisible(),
  };
  for (const [tab, ready] of Object.entries(expectations)) {
    await tabs(page).getByRole("tab", { name: tab }).click();
    await ready();
    await expectNoViolations(page, `member home: ${tab} tab`);
  }
  await expect(page.getByText("Nothing waiting for approval")).toBeVisible();

  await tabs(page).getByRole("tab", { name: "Community" }).click();
  await page.getByRole("button", { name: "Write something..." }).click();
  await expect(page.getByRole("dialog", { name: "Create post" })).toBeVisible();
  await expectNoViolations(page, "the create-post dialog");
  await page.keyboard.press("Escape");

  await expect(header(page)).toBeVisible();
});
