import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import { REPORT_MESSAGES } from "../src/shared/reports";
import { apiFor, createConfirmedUser, expectNoViolations, header, uniqueSuffix } from "./helpers";

// Reports end to end (issue 22): a member reports a post from its menu (the dialog asks for a
// reason, and for words when the reason is Other); two more members report it, which hides it
// pending review: other members no longer see it and its author sees it marked; a moderator opens
// Admin → Reports, removes it with a reason, and the author reads that reason in the bell. Axe
// checks the dialog and the Reports section. Data is made through the API.

test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };

async function createCommunity(api: APIRequestContext): Promise<Community> {
  const name = `Reports ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return { ...((await res.json()) as { id: string; slug: string }), name };
}

async function join(api: APIRequestContext, community: Community) {
  const res = await api.post(`/api/communities/${community.id}/join`);
  expect(res.ok(), await res.text()).toBe(true);
}

/** A page of a browser already signed in through the API. */
async function signedInPage(browser: Browser, api: APIRequestContext) {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  await context.addCookies((await api.storageState()).cookies);
  return { context, page: await context.newPage() };
}

const postCard = (page: Page, content: string) => page.getByRole("article").filter({ hasText: content });
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("three members' reports hide a post; a moderator removes it with a reason its author then reads", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [owner, author, first, second, third, moderator] = await Promise.all(
    ["rptown", "rptaut", "rptone", "rpttwo", "rptthr", "rptmod"].map((p) => createConfirmedUser(p)),
  );
  const ownerApi = await apiFor(owner);
  const community = await createCommunity(ownerApi);
  const apis = await Promise.all([author, first, second, third, moderator].map((u) => apiFor(u)));
  const [authorApi, firstApi, secondApi, thirdApi, moderatorApi] = apis;
  for (const api of apis) await join(api, community);
  const session = await moderatorApi.get("/api/auth/get-session");
  const moderatorId = ((await session.json()) as { user: { id: string } }).user.id;
  const promoted = await ownerApi.patch(`/api/communities/${community.id}/members/${moderatorId}`, {
    data: { role: "moderator" },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  const content = `Buy cheap followers now at my shop ${uniqueSuffix()}`;
  const created = await authorApi.post(`/api/communities/${community.id}/posts`, { data: { content } });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { id: string }).id;

  // The first member reports it from the post's menu.
  const { context: firstContext, page } = await signedInPage(browser, firstApi);
  await page.goto(`/community/${community.slug}`);
  await postCard(page, content).getByRole("button", { name: "Post options" }).click();
  await page.getByRole("menuitem", { name: "Report Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Report this post" });
  await expect(dialog.getByRole("radio", { name: /^Spam/ })).toBeVisible();
  await expectNoViolations(page, "the report dialog");
  await dialog.getByRole("radio", { name: /^Other/ }).check();
  await dialog.getByRole("button", { name: "Report", exact: true }).click();
  await expect(dialog.getByText(REPORT_MESSAGES.otherTextRequired)).toBeVisible();
  await dialog.getByRole("radio", { name: /^Spam/ }).check();
  await dialog.getByLabel("Anything to add? (optional)").fill("Selling followers in every category.");
  await dialog.screenshot({ path: "test-results/reports-dialog.png" });
  await dialog.getByRole("button", { name: "Report", exact: true }).click();
  await expect(page.getByText(REPORT_MESSAGES.submitted)).toBeVisible();
  await expect(dialog).toBeHidden();

  // Reporting it again counts once, and says so.
  await postCard(page, content).getByRole("button", { name: "Post options" }).click();
  await page.getByRole("menuitem", { name: "Report Post" }).click();
  await page
    .getByRole("dialog", { name: "Report this post" })
    .getByRole("radio", { name: /^Harassment/ })
    .check();
  await page
    .getByRole("dialog", { name: "Report this post" })
    .getByRole("button", { name: "Report", exact: true })
    .click();
  await expect(page.getByText(REPORT_MESSAGES.alreadyReported)).toBeVisible();

  // Two more members report it (the community's threshold is 3): it is hidden pending review.
  for (const [api, reason, text] of [
    [secondApi, "spam", ""],
    [thirdApi, "other", "Same advert as yesterday"],
  ] as const) {
    const res = await api.post("/api/reports", { data: { target: "post", target_id: postId, reason, text } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: community.name })).toBeVisible();
  await expect(postCard(page, content)).toHaveCount(0);

  // Its author still sees it, marked.
  const { context: authorContext, page: authorPage } = await signedInPage(browser, authorApi);
  await authorPage.goto(`/community/${community.slug}`);
  await expect(postCard(authorPage, content).getByText(REPORT_MESSAGES.hiddenPendingReview)).toBeVisible();
  // …and the author offers no Report on their own post.
  await postCard(authorPage, content).getByRole("button", { name: "Post options" }).click();
  await expect(authorPage.getByRole("menuitem", { name: "Edit Post" })).toBeVisible();
  await expect(authorPage.getByRole("menuitem", { name: "Report Post" })).toHaveCount(0);
  await authorPage.keyboard.press("Escape");

  // A moderator opens Admin → Reports (the only part of the Admin tab they see): the post, its
  // author and the three reports; they may remove or warn, not ban.
  const { context: modContext, page: modPage } = await signedInPage(browser, moderatorApi);
  await modPage.goto(`/community/${community.slug}`);
  await modPage.getByRole("tab", { name: "Admin" }).click();
  const reports = modPage.getByRole("region", { name: "Reports" });
  const kase = reports.getByRole("article").filter({ hasText: content });
  await expect(kase).toBeVisible();
  await expect(reports.getByText("1 open")).toBeVisible();
  await expect(kase.getByText("3 reports")).toBeVisible();
  await expect(kase.getByText(REPORT_MESSAGES.hiddenPendingReview)).toBeVisible();
  await expect(kase.getByText("Same advert as yesterday")).toBeVisible();
  await expect(kase.getByText(first.name)).toBeVisible();
  await expect(kase.getByRole("button", { name: /^Warn / })).toBeVisible();
  await expect(kase.getByRole("button", { name: /^Ban / })).toHaveCount(0);
  await expect(modPage.getByRole("heading", { name: "Analytics" })).toHaveCount(0);
  await expectNoViolations(modPage, "Admin → Reports");
  await kase.screenshot({ path: "test-results/reports-queue.png" });

  // Remove asks for a reason, which the author is told.
  await kase.getByRole("button", { name: /^Remove / }).click();
  const ask = modPage.getByRole("dialog", { name: "Remove this post?" });
  await ask.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(ask.getByText(REPORT_MESSAGES.reasonRequired)).toBeVisible();
  const reason = "Rule 2: no advertising.";
  await ask.getByLabel("Reason for the author").fill(reason);
  await expectNoViolations(modPage, "the remove dialog");
  await ask.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(modPage.getByText("The post was removed. Its author was told why.")).toBeVisible();
  await expect(kase).toHaveCount(0);
  await expect(reports.getByText(REPORT_MESSAGES.emptyQueue)).toBeVisible();

  // The author reads the reason in the bell.
  await authorPage.reload();
  await header(authorPage)
    .getByRole("button", { name: /^Notifications/ })
    .click();
  await expect(
    authorPage
      .getByRole("dialog", { name: "Notifications" })
      .getByText(new RegExp(escapeRegExp(REPORT_MESSAGES.removedNotice("post", community.name, reason)))),
  ).toBeVisible();
  await expect(postCard(authorPage, content)).toHaveCount(0);

  await Promise.all([firstContext.close(), authorContext.close(), modContext.close()]);
});

test("the owner sets how many reports hide a post and the level needed to start a chat", async ({ browser }) => {
  const owner = await createConfirmedUser("rptset");
  const ownerApi = await apiFor(owner);
  const community = await createCommunity(ownerApi);
  const { context, page } = await signedInPage(browser, ownerApi);
  await page.goto(`/community/${community.slug}?settings=moderation`);
  const dialog = page.getByRole("dialog", { name: "Community settings" });
  const threshold = dialog.getByLabel("Reports that hide a post or comment");
  await expect(threshold).toHaveValue("3");
  await threshold.fill("51");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(threshold).toHaveAttribute("aria-invalid", "true");
  await threshold.fill("2");
  await dialog.getByRole("combobox", { name: "Level needed to start a chat" }).click();
  await page.getByRole("option", { name: "Level 3" }).click();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Moderation settings saved.")).toBeVisible();
  const saved = await ownerApi.get(`/api/communities/${community.id}/reports/settings`);
  expect(await saved.json()).toEqual({ hide_threshold: 2, min_message_level: 3 });
  await context.close();
});
