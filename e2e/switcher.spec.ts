import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import {
  BASE_URL,
  type TestUser,
  apiFor,
  createConfirmedUser,
  expectNoViolations,
  header,
  uniqueSuffix,
  signInPage,
} from "./helpers";

// Members find their communities (issue 16): the header's community switcher and "Your communities"
// on /, private ones included, kept live through the notification stream. Data is made through the
// API, so the journeys do not depend on the demo seed.

// Transitions finished at once: axe then judges colors as they settle, not mid-fade.
test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };

let owner: TestUser;
let member: TestUser;
let ownerApi: APIRequestContext;
let hidden: Community;
let open: Community;

async function createCommunity(api: APIRequestContext, prefix: string, settings: object = {}) {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { id: string; slug: string };
  const patch = await api.patch(`/api/communities/${created.id}`, {
    data: { description: `${name}, for the switcher journeys.`, ...settings },
  });
  expect(patch.status(), await patch.text()).toBe(200);
  return { community: { ...created, name }, inviteCode: ((await patch.json()) as { invite_code: string }).invite_code };
}

const switcher = (page: Page) => header(page).getByRole("button", { name: /^Your communities/ });
const menu = (page: Page) => page.getByRole("menu");
const yourRow = (page: Page) => page.getByRole("region", { name: "Your communities" });

test.beforeAll(async () => {
  owner = await createConfirmedUser("swown");
  member = await createConfirmedUser("swmem");
  ownerApi = await apiFor(owner);
  const made = await createCommunity(ownerApi, "Hidden Grove", { visibility: "private" });
  hidden = made.community;
  open = (await createCommunity(ownerApi, "Open Field")).community;
  const memberApi = await apiFor(member);
  const accepted = await memberApi.post(`/api/invites/${made.inviteCode}/accept`);
  expect(accepted.ok(), await accepted.text()).toBe(true);
});

test("a member of a private community reaches it from / and from the header switcher, by mouse and keyboard", async ({
  page,
}) => {
  await signInPage(page, member);
  await page.goto("/");
  // The directory lists public communities only; "Your communities" lists the private one.
  await yourRow(page)
    .getByRole("link", { name: new RegExp(hidden.name) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/community/${hidden.slug}$`));
  await expect(page.getByRole("complementary", { name: `About ${hidden.name}` })).toBeVisible();

  // In the community, the switcher names it and highlights it.
  await expect(switcher(page)).toHaveAccessibleName(new RegExp(`current: ${hidden.name}`));
  await switcher(page).click();
  const item = menu(page).getByRole("menuitem", { name: new RegExp(hidden.name) });
  await expect(item).toHaveAttribute("aria-current", "page");
  await expect(menu(page).getByRole("menuitem", { name: "Discover communities" })).toBeVisible();
  await expect(menu(page).getByRole("menuitem", { name: "Create a community" })).toBeVisible();
  await expectNoViolations(page, "the open switcher in a community");
  await menu(page).getByRole("menuitem", { name: "Discover communities" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Discover communities" })).toBeVisible();

  // Keyboard only: open with Enter, the first item has focus, Enter goes there.
  await switcher(page).focus();
  await page.keyboard.press("Enter");
  await expect(menu(page).getByRole("menuitem", { name: new RegExp(hidden.name) })).toBeFocused();
  await expectNoViolations(page, "the open switcher on /");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/community/${hidden.slug}$`));
  await expect(page.getByRole("complementary", { name: `About ${hidden.name}` })).toBeVisible();
  // Escape closes it and gives focus back to the button.
  await switcher(page).click();
  await expect(menu(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu(page)).toHaveCount(0);
  await expect(switcher(page)).toBeFocused();
});

test("the owner's communities are marked in the switcher, and / has no violations with the row", async ({ page }) => {
  await signInPage(page, owner);
  await page.goto("/");
  await expect(yourRow(page).getByRole("link", { name: new RegExp(hidden.name) })).toContainText("Owner");
  await expectNoViolations(page, "/ with Your communities");
  await switcher(page).click();
  await expect(menu(page).getByRole("menuitem", { name: new RegExp(`${hidden.name}.*Owner`) })).toBeVisible();
  await expect(menu(page).getByRole("menuitem", { name: new RegExp(`${open.name}.*Owner`) })).toBeVisible();
});

test("the switcher and the row follow a join and a leave made in another tab, live", async ({ context }) => {
  const watcher = await context.newPage();
  const actor = await context.newPage();
  await signInPage(watcher, member);
  await watcher.goto("/");
  await expect(yourRow(watcher).getByRole("link", { name: new RegExp(hidden.name) })).toBeVisible();
  await expect(yourRow(watcher).getByRole("link", { name: new RegExp(open.name) })).toHaveCount(0);
  await switcher(watcher).click();
  await expect(menu(watcher).getByRole("menuitem", { name: new RegExp(open.name) })).toHaveCount(0);
  await watcher.keyboard.press("Escape");

  // The other tab joins…
  await actor.goto(`/community/${open.slug}`);
  await actor
    .getByRole("complementary", { name: `Join ${open.name}` })
    .getByRole("button", { name: "JOIN FREE" })
    .click();
  await expect(actor.getByRole("complementary", { name: `About ${open.name}` })).toBeVisible();
  // …and the first tab shows it without a reload.
  await expect(yourRow(watcher).getByRole("link", { name: new RegExp(open.name) })).toBeVisible();
  await switcher(watcher).click();
  await expect(menu(watcher).getByRole("menuitem", { name: new RegExp(open.name) })).toBeVisible();

  // The other tab leaves: gone from the open menu and the row.
  const side = actor.getByRole("complementary", { name: `About ${open.name}` });
  await side.getByRole("button", { name: "Leave Community" }).click();
  await actor.getByRole("alertdialog").getByRole("button", { name: "Leave Community" }).click();
  await expect(actor.getByText(`You left ${open.name}.`)).toBeVisible();
  await expect(menu(watcher).getByRole("menuitem", { name: new RegExp(open.name) })).toHaveCount(0);
  await expect(yourRow(watcher).getByRole("link", { name: new RegExp(open.name) })).toHaveCount(0);
  await expect(yourRow(watcher).getByRole("link", { name: new RegExp(hidden.name) })).toBeVisible();
});
