import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import sharp from "sharp";
import { MESSAGING_MESSAGES } from "../src/shared/messaging";
import { type TestUser, apiFor, createConfirmedUser, expectNoViolations, header, uniqueSuffix } from "./helpers";

// Messages end to end (issue 22): two members of one community write to each other in two
// browsers. The second sees the message arrive without a reload, the header's badge counts it,
// opening it marks it seen and the sender's view says "Seen"; links are links, markup is text;
// editing and deleting one's own message; the inbox and a conversation pass axe; one blocks the
// other, whose composer is then disabled with the refusal. Accounts are made through the API.

test.use({ contextOptions: { reducedMotion: "reduce" } });

/** A page of a browser already signed in through the API. */
async function signedInPage(browser: Browser, api: APIRequestContext) {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  await context.addCookies((await api.storageState()).cookies);
  return { context, page: await context.newPage() };
}

const messagesLink = (page: Page) => header(page).getByRole("link", { name: /^Messages/ });
const composer = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });
const conversationLog = (page: Page, name: string) => page.getByRole("region", { name: `Messages with ${name}` });
const composerForm = (page: Page) => page.getByRole("form", { name: "Write a message" });

async function twoMembers() {
  const owner = await createConfirmedUser("msgown");
  const member = await createConfirmedUser("msgmem");
  const ownerApi = await apiFor(owner);
  const memberApi = await apiFor(member);
  const name = `Chat ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const community = (await res.json()) as { id: string; slug: string };
  const joined = await memberApi.post(`/api/communities/${community.id}/join`);
  expect(joined.ok(), await joined.text()).toBe(true);
  return { owner, member, ownerApi, memberApi, community };
}

test("two members message each other live: badge, seen mark, links as text, edit and delete", async ({ browser }) => {
  test.setTimeout(90_000);
  const { owner, member, ownerApi, memberApi } = await twoMembers();
  const a = await signedInPage(browser, ownerApi);
  const b = await signedInPage(browser, memberApi);

  // The member waits on the home page: no unread messages yet.
  await b.page.goto("/");
  await expect(messagesLink(b.page)).toHaveAccessibleName("Messages");

  // The owner opens the member's profile and starts a conversation with 'Message'.
  await a.page.goto(`/u/${member.username}`);
  await a.page.getByRole("button", { name: "Message", exact: true }).click();
  await expect(a.page).toHaveURL(/\/messages\/[^/]+$/);
  await expect(a.page.getByRole("heading", { name: member.name })).toBeVisible();
  await composer(a.page).fill("Hello <b>there</b>, see https://example.com/guide");
  await a.page.getByRole("button", { name: "Send" }).click();
  const sent = conversationLog(a.page, member.name);
  await expect(sent.getByText("Hello <b>there</b>, see")).toBeVisible();
  await expect(sent.getByText("Sent", { exact: true })).toBeVisible();

  // The member's badge counts it without a reload; the inbox shows it unread.
  await expect(messagesLink(b.page)).toHaveAccessibleName("Messages, 1 unread");
  await messagesLink(b.page).click();
  const row = b.page.getByRole("link", { name: new RegExp(owner.name) });
  await expect(row).toContainText("Hello <b>there</b>");
  await expect(row).toContainText("1 unread message");
  await expectNoViolations(b.page, "the inbox");

  // Opening it shows the message as text, its link safe, and marks it seen on both sides.
  await row.click();
  const received = conversationLog(b.page, owner.name);
  await expect(received.getByText("Hello <b>there</b>, see")).toBeVisible();
  const link = received.getByRole("link", { name: "https://example.com/guide" });
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow ugc");
  await expect(link).toHaveAttribute("href", "https://example.com/guide");
  await expect(received.locator("b")).toHaveCount(0);
  await expect(messagesLink(b.page)).toHaveAccessibleName("Messages");
  await expect(sent.getByText("Seen", { exact: true })).toBeVisible();
  await expectNoViolations(b.page, "a conversation");

  // A reply arrives in the owner's open conversation live.
  await composer(b.page).fill("Hi! Thanks for the guide");
  await composer(b.page).press("Enter");
  await expect(sent.getByText("Hi! Thanks for the guide")).toBeVisible();

  // The member edits their reply, then deletes it; the owner sees both without a reload.
  await received.getByText("Hi! Thanks for the guide").hover();
  await received
    .getByRole("button", { name: /^Message options/ })
    .last()
    .click();
  await b.page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = b.page.getByRole("textbox", { name: "Edit message" });
  await edit.fill("Hi! Thanks a lot for the guide");
  await edit.press("Enter");
  await expect(received.getByText("Hi! Thanks a lot for the guide")).toBeVisible();
  await expect(sent.getByText("Hi! Thanks a lot for the guide")).toBeVisible();
  await expect(sent.getByText("Edited", { exact: true })).toBeVisible();

  await received.getByText("Hi! Thanks a lot for the guide").hover();
  await received
    .getByRole("button", { name: /^Message options/ })
    .last()
    .click();
  await b.page.getByRole("menuitem", { name: "Delete" }).click();
  await b.page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(received.getByText(MESSAGING_MESSAGES.deletedMessage)).toBeVisible();
  await expect(sent.getByText(MESSAGING_MESSAGES.deletedMessage)).toBeVisible();
  await expect(sent.getByText("Hi! Thanks a lot for the guide")).toHaveCount(0);

  // An image goes through the uploads pipeline and reaches the other side live.
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c2410c" } })
    .png()
    .toBuffer();
  await composerForm(a.page)
    .locator('input[type="file"]')
    .setInputFiles({ name: "sunset.png", mimeType: "image/png", buffer: png });
  await expect(composerForm(a.page).getByRole("img", { name: "Image to send" })).toBeVisible();
  await expect(a.page.getByRole("button", { name: "Send" })).toBeEnabled();
  await a.page.getByRole("button", { name: "Send" }).click();
  await expect(sent.getByRole("img", { name: "Image from you" })).toBeVisible();
  const image = received.getByRole("img", { name: `Image from ${owner.name}` });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await a.context.close();
  await b.context.close();
  await ownerApi.dispose();
  await memberApi.dispose();
});

test("after one blocks the other, the other's composer is disabled with the refusal", async ({ browser }) => {
  const { owner, member, ownerApi, memberApi } = await twoMembers();
  const opened = await ownerApi.post("/api/conversations", { data: { user_id: await userIdOf(ownerApi, member) } });
  expect(opened.ok(), await opened.text()).toBe(true);
  const conversation = (await opened.json()) as { id: string };
  const sent = await ownerApi.post(`/api/conversations/${conversation.id}/messages`, { data: { body: "Hi there" } });
  expect(sent.status(), await sent.text()).toBe(201);

  const a = await signedInPage(browser, ownerApi);
  const b = await signedInPage(browser, memberApi);
  await a.page.goto(`/messages/${conversation.id}`);
  await expect(composer(a.page)).toBeEnabled();

  // The member blocks the owner from the conversation's menu.
  await b.page.goto(`/messages/${conversation.id}`);
  await expect(conversationLog(b.page, owner.name).getByText("Hi there")).toBeVisible();
  await b.page.getByRole("button", { name: "Conversation options" }).click();
  await b.page.getByRole("menuitem", { name: "Block" }).click();
  await b.page.getByRole("alertdialog").getByRole("button", { name: "Block" }).click();
  await expect(composerForm(b.page).getByText(MESSAGING_MESSAGES.cannotMessage)).toBeVisible();
  await expect(composerForm(b.page).getByRole("button", { name: "Unblock" })).toBeVisible();

  // The owner can no longer write: the box is disabled and says so (no reason given).
  await a.page.reload();
  await expect(composer(a.page)).toBeDisabled();
  await expect(composerForm(a.page).getByText(MESSAGING_MESSAGES.cannotMessage)).toBeVisible();
  await expect(a.page.getByRole("button", { name: "Send" })).toBeDisabled();

  // Unblocking from the conversation lets them write again.
  await composerForm(b.page).getByRole("button", { name: "Unblock" }).click();
  await expect(conversationLog(b.page, owner.name).getByText("Hi there")).toBeVisible();
  await a.page.reload();
  await expect(composer(a.page)).toBeEnabled();

  await a.context.close();
  await b.context.close();
  await ownerApi.dispose();
  await memberApi.dispose();
});

async function userIdOf(api: APIRequestContext, user: TestUser): Promise<string> {
  const res = await api.get(`/api/profiles/${user.username}`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { user_id: string }).user_id;
}
