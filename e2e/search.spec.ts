import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { SEARCH_MESSAGES } from "../src/shared/search";
import { SEARCH_DEMO } from "../src/server/seed/content/search.data";
import { DEMO, apiFor, createConfirmedUser, expectNoViolations, header, signInPage, uniqueSuffix } from "./helpers";

// Search end to end (issue 21): a member finds a months-old post of the demo by a word that only one
// of its comments holds and opens it at that comment; `/` focuses the community's search box; the
// query lives in the address (back and forward restore it); the header's search finds a post in a
// community the member never joined and names that community; axe finds nothing on the results.

test.use({ contextOptions: { reducedMotion: "reduce" } });

const member = { email: DEMO.member, password: DEMO.password, name: "", username: "" };
const communityBox = (page: Page) => page.getByRole("searchbox", { name: SEARCH_MESSAGES.placeholder });
const results = (page: Page) => page.getByRole("heading", { name: /^Results for/ });
const group = (page: Page, name: RegExp) =>
  page.locator("section").filter({ has: page.getByRole("heading", { level: 3, name }) });

test("a member finds a months-old post by a word of one of its comments and lands at that comment", async ({
  page,
}) => {
  await signInPage(page, member);
  await page.goto(`/community/${SEARCH_DEMO.community}`);
  await expect(page.getByRole("heading", { level: 1, name: "Film Photography Club" })).toBeVisible();
  const box = communityBox(page);
  await expect(box).toBeVisible();

  // `/` focuses the search box, but not while typing in another field.
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("/");
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("");

  await box.pressSequentially(SEARCH_DEMO.word.toLowerCase(), { delay: 20 });
  await expect(page).toHaveURL(/[?&]q=pyrocat\b/);
  await expect(results(page)).toHaveText(SEARCH_MESSAGES.resultsFor("pyrocat"));
  const comments = group(page, /^Comments?\b/);
  const hit = comments.getByRole("listitem").filter({ hasText: "Pyrocat-HD as a semi-stand" });
  await expect(hit).toBeVisible();
  await expect(hit.locator("mark").first()).toHaveText(/pyrocat/i);
  await expect(hit.getByRole("time")).toBeVisible();

  // The result opens the post at that comment.
  await hit.getByRole("link").click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]+#comment-[0-9a-f-]+$/);
  await expect(page.getByText(SEARCH_DEMO.post)).toBeVisible();
  const comment = page.getByText(SEARCH_DEMO.comments[1]);
  await expect(comment).toBeVisible();
  await expect(comment).toBeInViewport();

  // Back: the results again, with the query in the box.
  await page.goBack();
  await expect(results(page)).toBeVisible();
  await expect(communityBox(page)).toHaveValue("pyrocat");
  await expect(hit).toBeVisible();
});

test("the query lives in the address: filters and back and forward restore it", async ({ page }) => {
  await signInPage(page, member);
  await page.goto(`/community/${SEARCH_DEMO.community}`);
  const box = communityBox(page);
  await box.fill("developer");
  await expect(page).toHaveURL(/[?&]q=developer\b/);
  await expect(results(page)).toBeVisible();

  await page.getByLabel("Sort by").selectOption({ label: "Newest" });
  await expect(page).toHaveURL(/[?&]order=newest\b/);

  await page.goBack();
  await expect(page).not.toHaveURL(/order=/);
  await expect(page.getByLabel("Sort by")).toHaveValue("relevance");
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(results(page)).toHaveCount(0);
  await expect(box).toHaveValue("");
  await page.goForward();
  await expect(box).toHaveValue("developer");
  await expect(results(page)).toHaveText(SEARCH_MESSAGES.resultsFor("developer"));

  // Nothing found: the message and the hint.
  await box.fill("zzqxjv");
  await expect(page.getByRole("heading", { name: SEARCH_MESSAGES.noResults })).toBeVisible();
  await expect(page.getByText(SEARCH_MESSAGES.noResultsHint)).toBeVisible();
});

async function createPublicCommunityWithPost(api: APIRequestContext, word: string) {
  const name = `Kiln Notes ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const community = (await res.json()) as { id: string; slug: string };
  const post = await api.post(`/api/communities/${community.id}/posts`, {
    data: { content: `Cone 6 glaze test: the ${word} celadon crazed on the second firing.` },
  });
  expect(post.status(), await post.text()).toBe(201);
  return { ...community, name };
}

test("the header's search finds a post in another community and names it; axe finds nothing", async ({ page }) => {
  const word = `kilnword${uniqueSuffix()}`;
  const owner = await createConfirmedUser("srch");
  const community = await createPublicCommunityWithPost(await apiFor(owner), word);

  await signInPage(page, member);
  await page.goto("/");
  const box = header(page).getByRole("searchbox", { name: SEARCH_MESSAGES.headerTitle });
  await box.fill(word);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
  await expect(results(page)).toBeVisible();
  const hit = group(page, /^Posts?\b/)
    .getByRole("listitem")
    .filter({ hasText: "celadon crazed" });
  await expect(hit).toBeVisible();
  await expect(hit).toContainText(`in ${community.name}`);
  await expect(hit.locator("mark").first()).toHaveText(word);
  await expectNoViolations(page, "the search results");
  await page.screenshot({ path: "test-results/search-results.png", fullPage: true });

  await hit.getByRole("link").click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]+$/);
  await expect(page.getByText(`the ${word} celadon crazed`)).toBeVisible();
});

test("community results pass axe, with filters and kind groups", async ({ page }) => {
  await signInPage(page, member);
  await page.goto(`/community/${SEARCH_DEMO.community}?q=${SEARCH_DEMO.word}`);
  await expect(results(page)).toBeVisible();
  await expect(
    group(page, /^Comments?\b/)
      .getByRole("listitem")
      .first(),
  ).toBeVisible();
  await expect(communityBox(page)).toHaveValue(SEARCH_DEMO.word);
  await expectNoViolations(page, "a community's search results");
  await page.screenshot({ path: "test-results/search-community.png", fullPage: true });
});
