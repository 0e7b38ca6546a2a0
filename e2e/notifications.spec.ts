import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import { MSG } from "../src/shared/messages";
import { apiFor, createConfirmedUser, expectNoViolations, header, uniqueSuffix } from "./helpers";

// Notifications in the browser: the header bell (live badge in every tab, the dropdown, a click
// that marks read and opens the post), /notifications with its All and Unread lists, the
// per-community switches of the settings tab and the digest's unsubscribe page.

// Transitions finished at once: axe then judges colors as they settle, not mid-fade.
test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };
type Post = { id: string; content: string };

async function createCommunity(api: APIRequestContext, prefix: string): Promise<Community> {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return { ...((await res.json()) as { id: string; slug: string }), name };
}

async function createPost(api: APIRequestContext, community: Community, content: string): Promise<Post> {
  const res = await api.post(`/api/communities/${community.id}/posts`, { data: { content } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Post;
}

/** A page of a browser already signed in through the API. */
async function signedInPage(browser: Browser, api: APIRequestContext) {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  await context.addCookies((await api.storageState()).cookies);
  return { context, page: await context.newPage() };
}

const bell = (page: Page) => header(page).getByRole("button", { name: /^Notifications/ });
const dropdown = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

test("a like reaches the owner's bell live in every tab; a click marks it read and opens the post", async ({
  browser,
}) => {
  const owner = await createConfirmedUser("bell");
  const member = await createConfirmedUser("bell");
  const ownerApi = await apiFor(owner);
  const memberApi = await apiFor(member);
  const community = await createCommunity(ownerApi, "Bell");
  const post = await createPost(ownerApi, community, `Bell post ${uniqueSuffix()}`);

  // The owner has the home page open in two tabs of one browser.
  const { context: ownerContext, page } = await signedInPage(browser, ownerApi);
  await page.goto("/");
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  const secondTab = await ownerContext.newPage();
  await secondTab.goto("/");
  await expect(bell(secondTab)).toHaveAccessibleName("Notifications");

  // The member joins (owners hear of new members) and likes the post in their own browser.
  const joined = await memberApi.post(`/api/communities/${community.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  const { context: memberContext, page: memberPage } = await signedInPage(browser, memberApi);
  await memberPage.goto(`/community/${community.slug}`);
  const card = memberPage.getByRole("article").filter({ hasText: post.content });
  await card.getByRole("button", { name: /Like/ }).click();
  await expect(card.getByRole("button", { name: /Like/ })).toHaveAttribute("aria-pressed", "true");

  // No reload: the badge follows in both tabs.
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  await expect(bell(page)).toHaveText("2");
  await expect(bell(secondTab)).toHaveAccessibleName("Notifications, 2 unread");

  // The dropdown lists both, newest first, unread; keyboard opens it and Escape closes it.
  await bell(page).focus();
  await page.keyboard.press("Enter");
  const menu = dropdown(page);
  await expect(menu).toBeVisible();
  const items = menu.getByRole("listitem");
  await expect(items).toHaveCount(2);
  const like = menu.getByRole("link", { name: new RegExp(`${member.name} liked your post`) });
  await expect(like).toBeVisible();
  await expect(like).toContainText(community.name);
  await expect(like).toContainText(/just now|\dm ago/);
  await expect(items.first()).toContainText(`${member.name} liked your post`);
  await expect(menu.getByRole("link", { name: /^Unread: / })).toHaveCount(2);
  await expectNoViolations(page, "the open notification dropdown");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(bell(page)).toBeFocused();

  // A click marks it read (the count drops at once) and opens the post on the community page.
  await bell(page).click();
  await dropdown(page)
    .getByRole("link", { name: new RegExp(`${member.name} liked your post`) })
    .click();
  await expect(dropdown(page)).toBeHidden();
  await expect(page).toHaveURL(`/community/${community.id}#post-${post.id}`);
  await expect(page.getByRole("article").filter({ hasText: post.content })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  const unread = (await (await ownerApi.get("/api/notifications/unread-count")).json()) as { unread_count: number };
  expect(unread.unread_count).toBe(1);

  // 'Mark all as read' empties the badge and then turns itself off.
  await bell(page).click();
  await expect(dropdown(page).getByRole("link", { name: /^Unread: / })).toHaveCount(1);
  await dropdown(page).getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(bell(page)).toHaveText("");
  // The other tab hears of it too.
  await expect(bell(secondTab)).toHaveAccessibleName("Notifications");
  await expect(dropdown(page).getByRole("button", { name: "Mark all as read" })).toBeDisabled();
  await expect(dropdown(page).getByRole("link", { name: /^Unread: / })).toHaveCount(0);

  // 'View all notifications' opens the page: All lists both, Unread has none.
  await dropdown(page).getByRole("link", { name: "View all notifications" }).click();
  await expect(page).toHaveURL("/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");
  const list = page.getByRole("list", { name: "All notifications" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.getByRole("tab", { name: "Unread" }).click();
  await expect(page).toHaveURL("/notifications?filter=unread");
  await expect(page.getByRole("heading", { name: "You're all caught up" })).toBeVisible();

  // A new like arrives live on the open Unread list, and on All.
  const second = await createPost(ownerApi, community, `Second post ${uniqueSuffix()}`);
  const liked = await memberApi.post(`/api/posts/${second.id}/like`);
  expect(liked.ok(), await liked.text()).toBe(true);
  const unreadList = page.getByRole("list", { name: "Unread notifications" });
  await expect(unreadList.getByRole("listitem")).toHaveCount(1);
  await expect(unreadList).toContainText(`${member.name} liked your post`);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await expectNoViolations(page, "/notifications (Unread)");
  await page.getByRole("tab", { name: "All" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expect(list.getByRole("link", { name: /^Unread: / })).toHaveCount(1);
  await expectNoViolations(page, "/notifications (All)");

  // The page's 'Mark all as read' too; the Unread list is then empty again.
  await page.getByRole("main").getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(list.getByRole("link", { name: /^Unread: / })).toHaveCount(0);
  await page.getByRole("tab", { name: "Unread" }).click();
  await expect(page.getByRole("heading", { name: "You're all caught up" })).toBeVisible();

  await ownerContext.close();
  await memberContext.close();
  await ownerApi.dispose();
  await memberApi.dispose();
});

test("/notifications pages with 'Load more'; signed out it asks to log in", async ({ browser, page }) => {
  const owner = await createConfirmedUser("pages");
  const fan = await createConfirmedUser("pages");
  const ownerApi = await apiFor(owner);
  const fanApi = await apiFor(fan);
  const community = await createCommunity(ownerApi, "Pages");
  // One new member, 20 likes and the two levels those likes reach (5 and 20 points): three more
  // than a page.
  expect((await fanApi.post(`/api/communities/${community.id}/join`)).ok()).toBe(true);
  for (let i = 0; i < 20; i++) {
    const post = await createPost(ownerApi, community, `Post ${i}`);
    expect((await fanApi.post(`/api/posts/${post.id}/like`)).ok()).toBe(true);
  }

  const { context, page: ownerPage } = await signedInPage(browser, ownerApi);
  await ownerPage.goto("/notifications");
  await expect(bell(ownerPage)).toHaveAccessibleName("Notifications, 23 unread");
  await expect(bell(ownerPage)).toHaveText("9+");
  const list = ownerPage.getByRole("list", { name: "All notifications" });
  await expect(list.getByRole("listitem")).toHaveCount(20);
  await ownerPage.getByRole("button", { name: "Load more" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(23);
  await expect(ownerPage.getByRole("button", { name: "Load more" })).toHaveCount(0);
  // The dropdown shows the ten newest.
  await bell(ownerPage).click();
  await expect(dropdown(ownerPage).getByRole("listitem")).toHaveCount(10);
  await context.close();
  await ownerApi.dispose();
  await fanApi.dispose();

  await page.goto("/notifications");
  const login = page.getByRole("dialog", { name: "Welcome back" });
  await expect(login).toBeVisible();
  await expect(login).toContainText("Sign in to see your notifications.");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { name: "Sign in to see your notifications" })).toBeVisible();
  await expect(header(page).getByRole("button", { name: /^Notifications/ })).toHaveCount(0);
});

test("the Notifications tab has switches for each of the user's communities, saved as flipped", async ({ page }) => {
  const user = await createConfirmedUser("switches");
  const api = await apiFor(user);
  await page.context().addCookies((await api.storageState()).cookies);

  const openTab = async () => {
    await page.goto("/");
    await header(page).getByRole("button", { name: "Open user menu" }).click();
    await page.getByRole("menuitem", { name: "Edit profile" }).click();
    const edit = page.getByRole("dialog", { name: "Edit profile" });
    await edit.getByRole("tab", { name: "Notifications" }).click();
    return edit;
  };

  let edit = await openTab();
  await expect(edit.getByText("You haven't joined a community yet.")).toBeVisible();

  const community = await createCommunity(api, "Switches");
  edit = await openTab();
  const group = edit.getByRole("group", { name: community.name });
  for (const name of ["Posts", "Comments", "Announcements", "Events"]) {
    await expect(group.getByRole("switch", { name })).toBeChecked();
  }
  await expect(group.getByText("Likes on your posts, and your posts being approved")).toBeVisible();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/api/me/notification-settings") && r.request().method() === "PATCH" && r.ok(),
  );
  await group.getByRole("switch", { name: "Comments" }).click();
  expect((await saved).request().postDataJSON()).toEqual({
    community_settings: { [community.id]: { comments: false } },
  });
  await expect(group.getByRole("switch", { name: "Comments" })).not.toBeChecked();

  // Still off after a reload; all notifications off turns every switch off and disables it.
  edit = await openTab();
  const again = edit.getByRole("group", { name: community.name });
  await expect(again.getByRole("switch", { name: "Comments" })).not.toBeChecked();
  await expect(again.getByRole("switch", { name: "Posts" })).toBeChecked();
  await edit.getByRole("switch", { name: "All notifications" }).click();
  await expect(again.getByRole("switch", { name: "Posts" })).toBeDisabled();
  await expect(again.getByRole("switch", { name: "Posts" })).not.toBeChecked();
  await expectNoViolations(page, "the Notifications tab with a community");

  // A failed save says so.
  await edit.getByRole("switch", { name: "All notifications" }).click();
  await expect(again.getByRole("switch", { name: "Posts" })).toBeEnabled();
  await page.route("**/api/me/notification-settings", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({ status: 500, json: { error: { code: "INTERNAL", message: "boom" } } })
      : route.continue(),
  );
  await again.getByRole("switch", { name: "Events" }).click();
  await expect(edit.getByText(MSG.notificationsUpdateFailed)).toBeVisible();
  await expect(again.getByRole("switch", { name: "Events" })).toBeChecked();
  await api.dispose();
});

test("the unsubscribe page shows the server's message for a bad or missing token", async ({ page }) => {
  await page.goto("/notifications/unsubscribe?token=not-a-real-token");
  await expect(page.getByRole("heading", { level: 1, name: "We couldn't turn off your emails" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText(MSG.unsubscribeLinkInvalid);
  await expectNoViolations(page, "/notifications/unsubscribe with a bad token");
  await page.getByRole("link", { name: "Go to Hearth" }).click();
  await expect(page).toHaveURL("/");

  await page.goto("/notifications/unsubscribe");
  await expect(page.getByRole("alert")).toHaveText(MSG.unsubscribeLinkInvalid);
});

test("after a good unsubscribe link, a signed-in user can go straight to the Notifications tab", async ({ page }) => {
  // Good tokens only reach people in digest emails (tested through the API in the server's
  // tests); here the answer to a good one is played back to check what the page does with it.
  const user = await createConfirmedUser("unsub");
  const api = await apiFor(user);
  await page.context().addCookies((await api.storageState()).cookies);
  let sent: unknown = null;
  await page.route("**/api/notifications/unsubscribe", async (route) => {
    sent = route.request().postDataJSON();
    await route.fulfill({ json: { email_enabled: false } });
  });
  await page.goto("/notifications/unsubscribe?token=from-the-email");
  await expect(page.getByRole("heading", { level: 1, name: "Email notifications are off" })).toBeVisible();
  expect(sent).toEqual({ token: "from-the-email" });
  await page.getByRole("button", { name: "Manage notification settings" }).click();
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await expect(edit.getByRole("tab", { name: "Notifications" })).toHaveAttribute("aria-selected", "true");
  await expect(edit.getByRole("switch", { name: "Email notifications" })).toBeVisible();
  await api.dispose();
});

test("a tab in the background lets its stream go, and catches up when it comes back", async ({ browser }) => {
  const owner = await createConfirmedUser("park");
  const member = await createConfirmedUser("park");
  const ownerApi = await apiFor(owner);
  const memberApi = await apiFor(member);
  const community = await createCommunity(ownerApi, "Park");
  const { context, page } = await signedInPage(browser, ownerApi);
  await page.clock.install();
  const streams: string[] = [];
  const ended: string[] = [];
  page.on("request", (r) => r.url().includes("/api/realtime/notifications") && streams.push(r.url()));
  page.on("requestfailed", (r) => r.url().includes("/api/realtime/notifications") && ended.push(r.url()));
  page.on("requestfinished", (r) => r.url().includes("/api/realtime/notifications") && ended.push(r.url()));
  await page.goto("/");
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect.poll(() => streams.length).toBe(1);

  const setVisibility = (state: "hidden" | "visible") =>
    page.evaluate((value) => {
      Object.defineProperty(document, "visibilityState", { value, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, state);

  // Hidden for over a minute: the stream is closed.
  await setVisibility("hidden");
  await page.clock.runFor(61_000);
  await expect.poll(() => ended.length).toBe(1);

  // Meanwhile someone joins; back in front, the tab reconnects and shows it.
  const joined = await memberApi.post(`/api/communities/${community.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);
  await setVisibility("visible");
  await expect.poll(() => streams.length).toBe(2);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await context.close();
});
