import { type APIRequestContext, type Page, expect, request, test } from "@playwright/test";
import { COMMUNITY_CATEGORIES, slugify } from "../src/shared/communities";
import {
  BASE_URL,
  DEMO,
  type TestUser,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  header,
  logIn,
  uniqueSuffix,
} from "./helpers";

/** Cards per directory page in the web app (DIRECTORY_PAGE_SIZE). */
const PAGE_SIZE = 12;

type Card = { id: string; slug: string; name: string; category: string | null; member_count: number };

async function signedInApi(email: string, password: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const res = await api.post("/api/auth/sign-in/email", { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** A directory page straight from the API: what the grid must show, in this order. */
async function directoryPage(query: Record<string, string> = {}, cursor?: string) {
  const params = new URLSearchParams({ ...query, limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) });
  const res = await fetch(`${BASE_URL}/api/communities?${params}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { items: Card[]; next_cursor: string | null };
}

async function createCommunity(api: APIRequestContext, name: string, settings: Record<string, unknown> = {}) {
  const created = await api.post("/api/communities", { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { id, slug } = (await created.json()) as { id: string; slug: string };
  if (Object.keys(settings).length) {
    const patched = await api.patch(`/api/communities/${id}`, { data: settings });
    expect(patched.status(), await patched.text()).toBe(200);
  }
  return { id, slug };
}

const isDirectoryRequest = (url: URL) => url.pathname === "/api/communities";

/** Goes to the directory from another page, through the header's home link: the browser loads it. */
async function openDirectoryInTheBrowser(page: Page) {
  await page.goto("/free-trial");
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  await header(page).getByRole("link", { name: "Hearth home" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
}
const grid = (page: Page) => page.getByRole("list", { name: "Communities" });
const cards = (page: Page) => grid(page).getByRole("listitem");
const cardNames = (page: Page) => grid(page).getByRole("heading", { level: 3 });
const chips = (page: Page) => page.getByRole("navigation", { name: "Categories" });
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search communities" });

// Two communities of this run, found by a word only they carry: one in Technology, one in Arts.
const token = `zq${uniqueSuffix()}`;
const tech = { name: `Quokka ${token.slice(-8)}`, description: `Marsupial${token} tinkerers and their gadgets.` };
const arts = { name: `Wombat ${token.slice(-8)}`, description: `Painters who love ${token} and slow mornings.` };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const host = await createConfirmedUser("dirhost");
  const api = await signedInApi(host.email, host.password);
  await createCommunity(api, tech.name, { category: "technology", description: tech.description });
  await createCommunity(api, arts.name, { category: "arts", description: arts.description });

  // Paging needs more than a page of public communities: the demo seed has them; without it, make them.
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await directoryPage({}, cursor);
    total += page.items.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor && total <= PAGE_SIZE);
  let creator: APIRequestContext | null = null;
  for (let i = 0; total <= PAGE_SIZE; i++, total++) {
    // Ten creations an hour per account: a new account every eight.
    if (i % 8 === 0) {
      const user = await createConfirmedUser("dirfill");
      creator = await signedInApi(user.email, user.password);
    }
    await createCommunity(creator!, `Filler ${token.slice(-6)} ${i}`, { category: COMMUNITY_CATEGORIES[i % 7].id });
  }
});

test("the directory shows placeholders, then cards by member count, and loads more with the button", async ({
  page,
}) => {
  // Only the button pages here (no infinite scroll); the next test scrolls.
  await page.addInitScript(() => {
    Object.defineProperty(window, "IntersectionObserver", { value: undefined });
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isDirectoryRequest, async (route) => {
    await held;
    // A request the page gave up on meanwhile (a cancelled query) is already settled.
    await route.fallback().catch(() => undefined);
  });

  // A visitor who lands on the directory gets it drawn by the server (first-view.spec.ts); one who
  // comes to it from another page watches the browser load it.
  await openDirectoryInTheBrowser(page);
  await expect(page).toHaveTitle("Discover communities · Hearth");
  await expect(page.getByRole("heading", { level: 1, name: "Discover communities" })).toBeVisible();
  await expect(page.getByRole("link", { name: "or create your own" })).toHaveAttribute("href", "/signup");
  await expect(page.getByRole("status").filter({ hasText: "Loading communities" })).toBeAttached();
  await expect(page.locator("ul[aria-hidden=true] > li")).toHaveCount(6);
  release();

  const first = await directoryPage();
  await expect(cardNames(page)).toHaveText(first.items.map((c) => c.name));
  await expect(page.locator("ul[aria-hidden=true] > li")).toHaveCount(0);

  // A card: its link, member count and price; the image is sized and lazy.
  const top = first.items[0];
  const topCard = cards(page).first();
  await expect(topCard.getByRole("link", { name: top.name })).toHaveAttribute(
    "href",
    `/community/${encodeURIComponent(top.slug)}`,
  );
  await expect(topCard.getByText(/^\d+(\.\d)?k? members?$/)).toBeVisible();
  await expect(topCard.getByText(/^(Free|\$\d+(\.\d\d)?\/month)$/)).toBeVisible();
  // Cover pictures: sized (no layout shift); the first row, on screen at once, loads first, the
  // rest lazily.
  const covers = grid(page).locator("article > div:first-child > img");
  expect(await covers.count()).toBeGreaterThan(3);
  for (const [i, img] of (await covers.all()).entries()) {
    await expect(img).toHaveAttribute("width", /^\d+$/);
    await expect(img).toHaveAttribute("height", /^\d+$/);
    await expect(img).toHaveAttribute("loading", i < 3 ? "eager" : "lazy");
    await expect(img).toHaveAttribute("fetchpriority", i < 3 ? "high" : "auto");
  }

  const second = await directoryPage({}, first.next_cursor!);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(cardNames(page)).toHaveText([...first.items, ...second.items].map((c) => c.name));

  // The whole card leads to the community.
  await cards(page)
    .nth(PAGE_SIZE)
    .click({ position: { x: 40, y: 40 } });
  await expect(page).toHaveURL(`${BASE_URL}/community/${encodeURIComponent(second.items[0].slug)}`);
});

test("scrolling to the end of the grid loads the next page", async ({ page }) => {
  await page.goto("/");
  await expect(cards(page)).toHaveCount(PAGE_SIZE);
  await page.getByRole("button", { name: "Load more" }).scrollIntoViewIfNeeded();
  await expect(async () => expect(await cards(page).count()).toBeGreaterThan(PAGE_SIZE)).toPass();
});

test("a category chip filters the directory and is marked as selected", async ({ page }) => {
  await page.goto("/");
  const nav = chips(page);
  await expect(nav.getByRole("link")).toHaveText([
    "All",
    "Arts",
    "Business",
    "Finance",
    "Health",
    "Marketing",
    "Technology",
    "Wellness",
  ]);
  await expect(nav.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");

  await nav.getByRole("link", { name: "Technology" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/category/technology`);
  await expect(page).toHaveTitle("Technology communities · Hearth");
  await expect(nav.getByRole("link", { name: "Technology" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "All" })).not.toHaveAttribute("aria-current", /.*/);
  const technology = await directoryPage({ category: "technology" });
  expect(technology.items.every((c) => c.category === "technology")).toBe(true);
  await expect(cardNames(page)).toHaveText(technology.items.map((c) => c.name));
  await expect(cardNames(page).filter({ hasText: arts.name })).toHaveCount(0);

  await nav.getByRole("link", { name: "All" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(cardNames(page)).toHaveText((await directoryPage()).items.map((c) => c.name));

  await page.goto("/category/not-a-category");
  await expect(page.getByText("No communities found")).toBeVisible();
  await expect(nav.locator("[aria-current]")).toHaveCount(0);
});

test("the keyword search matches names and descriptions, lives in the URL and works within a category", async ({
  page,
}) => {
  await page.goto("/");
  await expect(cards(page)).toHaveCount(PAGE_SIZE);

  // A word only in the Technology community's description.
  await searchBox(page).fill(`marsupial${token}`);
  await expect(page).toHaveURL(`${BASE_URL}/?q=marsupial${token}`);
  await expect(cardNames(page)).toHaveText([tech.name]);

  // A word in both descriptions, then within a category.
  await searchBox(page).fill(token);
  // Both have one member: their order is by id, so compare as a set.
  await expect
    .poll(async () => (await cardNames(page).allTextContents()).sort())
    .toEqual([arts.name, tech.name].sort());
  await chips(page).getByRole("link", { name: "Arts" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/category/arts?q=${token}`);
  await expect(cardNames(page)).toHaveText([arts.name]);
  await expect(searchBox(page)).toHaveValue(token);

  // A name, typed on a category page (case does not matter).
  await page.goto("/category/technology");
  await searchBox(page).fill(tech.name.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`/category/technology\\?q=`));
  await expect(cardNames(page)).toHaveText([tech.name]);

  await searchBox(page).fill(`nothing-like-${token}`);
  await expect(page.getByText("No communities found")).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/category/technology`);
  await expect(cards(page).first()).toBeVisible();

  // Opening a search link fills the box.
  await page.goto(`/?q=${encodeURIComponent(arts.name)}`);
  await expect(searchBox(page)).toHaveValue(arts.name);
  await expect(cardNames(page)).toHaveText([arts.name]);
});

test("a failed load says so and recovers with Try again", async ({ page }) => {
  await page.route(isDirectoryRequest, (route) => route.abort());
  await openDirectoryInTheBrowser(page);
  await expect(page.getByRole("alert").filter({ hasText: "Failed to load communities." })).toBeVisible({
    timeout: 15_000,
  });
  await page.unroute(isDirectoryRequest);
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(cards(page)).toHaveCount(PAGE_SIZE);
});

test.describe("creating a community", () => {
  let user: TestUser;
  test.beforeAll(async () => {
    user = await createConfirmedUser("creator");
  });

  test("a visitor signs in first, then names the community and lands on its setup page", async ({ page }) => {
    await page.goto("/");
    await header(page).getByRole("button", { name: "Create Community" }).click();
    const login = page.getByRole("dialog", { name: "Welcome back" });
    await expect(login.getByText("Please sign in to create a community")).toBeVisible();
    await login.getByLabel("Email").fill(user.email);
    await login.getByLabel("Password", { exact: true }).fill(user.password);
    await login.getByRole("button", { name: "Log in", exact: true }).click();

    await expect(page).toHaveURL(`${BASE_URL}/create`);
    const dialog = page.getByRole("dialog", { name: "Create a community" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveTitle("Create a community · Hearth");
    const name = dialog.getByLabel("Community name");
    await expect(name).toBeFocused();
    await expect(dialog.getByText("0/30")).toBeVisible();

    await dialog.getByRole("button", { name: "Create community" }).click();
    await expect(dialog.getByText("Please enter a community name")).toBeVisible();
    await name.fill("   ");
    await dialog.getByRole("button", { name: "Create community" }).click();
    await expect(dialog.getByText("Please enter a community name")).toBeVisible();

    // Thirty characters at most, counted as you type.
    await name.fill("");
    await name.pressSequentially("x".repeat(34));
    await expect(name).toHaveValue("x".repeat(30));
    await expect(dialog.getByText("30/30")).toBeVisible();

    const title = `Night Owls ${token.slice(-6)}`;
    await name.fill(title);
    await expect(dialog.getByText(`${title.length}/30`)).toBeVisible();
    await dialog.getByRole("button", { name: "Create community" }).click();
    await expect(page).toHaveURL(new RegExp(`/community/${slugify(title)}/setup$`));
  });

  test("closing the dialog goes back home; a server failure shows in the dialog", async ({ page }) => {
    await page.goto("/");
    await header(page).getByRole("button", { name: "Log in" }).click();
    const login = page.getByRole("dialog", { name: "Welcome back" });
    await login.getByLabel("Email").fill(user.email);
    await login.getByLabel("Password", { exact: true }).fill(user.password);
    await login.getByRole("button", { name: "Log in", exact: true }).click();
    await expectSignedIn(page);

    await header(page).getByRole("button", { name: "Create Community" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/create`);
    const dialog = page.getByRole("dialog", { name: "Create a community" });
    await expect(dialog).toBeVisible();
    await expectNoViolations(page, "the create-community dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(`${BASE_URL}/`);

    await page.goto("/create");
    await page.route("**/api/communities", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ error: { code: "INTERNAL", message: "boom" } }),
          })
        : route.continue(),
    );
    await dialog.getByLabel("Community name").fill("Will Not Happen");
    await dialog.getByRole("button", { name: "Create community" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Failed to create community");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
  });
});

test("the directory, a category page and an empty result have no WCAG A/AA violations", async ({ page }) => {
  await page.goto("/");
  await expect(cards(page)).toHaveCount(PAGE_SIZE);
  await expectNoViolations(page, "/");

  await page.goto("/category/technology");
  await expect(cards(page).first()).toBeVisible();
  await expectNoViolations(page, "/category/technology");

  await page.goto("/category/unknown");
  await expect(page.getByText("No communities found")).toBeVisible();
  await expectNoViolations(page, "an unknown category");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/category/wellness");
  await expect(cards(page).first()).toBeVisible();
  await expect(chips(page).getByRole("link", { name: "Wellness" })).toBeInViewport();
  await expectNoViolations(page, "/category/wellness on a phone");
});

test("a signed-in member sees the same directory", async ({ page }) => {
  await page.goto("/");
  await logIn(page, DEMO.member, DEMO.password);
  await expectSignedIn(page);
  await expect(cardNames(page)).toHaveText((await directoryPage()).items.map((c) => c.name));
});
