import { expect, test } from "@playwright/test";
import { apiFor, createConfirmedUser, uniqueSuffix } from "./helpers";

// Live updates: a post written in one browser appears in another's open feed without a reload,
// and a members-only post never reaches an anonymous visitor's feed.

test("a new post appears live in a second browser, only for those who may see it", async ({ browser }) => {
  const owner = await createConfirmedUser("live");
  const member = await createConfirmedUser("live");
  const ownerApi = await apiFor(owner);
  const memberApi = await apiFor(member);
  const name = `Live ${uniqueSuffix()}`.slice(0, 30);
  const created = (await (await ownerApi.post("/api/communities", { data: { name } })).json()) as {
    id: string;
    slug: string;
  };
  await memberApi.post(`/api/communities/${created.id}/join`);

  // The member watches the feed in their own browser; an anonymous visitor watches too.
  const memberContext = await browser.newContext();
  const memberState = await memberApi.storageState();
  await memberContext.addCookies(memberState.cookies);
  const memberPage = await memberContext.newPage();
  await memberPage.goto(`/community/${created.slug}`);
  await expect(memberPage.getByRole("tab", { name: "Community" })).toBeVisible();
  const visitorContext = await browser.newContext();
  const visitorPage = await visitorContext.newPage();
  await visitorPage.goto(`/community/${created.slug}`);
  await expect(visitorPage.getByRole("button", { name: /JOIN/ })).toBeVisible();

  // The owner posts from a second browser.
  const ownerContext = await browser.newContext();
  await ownerContext.addCookies((await ownerApi.storageState()).cookies);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`/community/${created.slug}`);
  await ownerPage.getByRole("button", { name: "Write something..." }).click();
  const dialog = ownerPage.getByRole("dialog");
  await dialog.getByRole("textbox").first().fill("Hello from the other browser");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(memberPage.getByText("Hello from the other browser")).toBeVisible({ timeout: 10_000 });

  // A members-only post reaches the member live, never the anonymous visitor.
  const res = await ownerApi.post(`/api/communities/${created.id}/posts`, {
    data: { content: "Members only news", visibility: "members" },
  });
  expect(res.status()).toBe(201);
  await expect(memberPage.getByText("Members only news")).toBeVisible({ timeout: 10_000 });
  await visitorPage.waitForTimeout(1_500);
  await expect(visitorPage.getByText("Members only news")).toHaveCount(0);

  for (const c of [memberContext, visitorContext, ownerContext]) await c.close();
  await ownerApi.dispose();
  await memberApi.dispose();
});
