import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { CALENDAR_MESSAGES } from "../src/shared/calendar";
import { type TestUser, apiFor, createConfirmedUser, expectNoViolations, signInPage, uniqueSuffix } from "./helpers";

// The calendar end to end (issue 19): an owner creates a weekly event with a capacity of 1 through
// the form; a member finds it in the list and the month view and answers Going, and the sidebar's
// 'Up next' shows it; a second member finds it full and joins the waitlist; axe finds nothing on
// the Calendar tab or the event dialog.

// Transitions finished at once: axe then judges colors as they settle, not mid-fade.
test.use({ contextOptions: { reducedMotion: "reduce" }, timezoneId: "UTC" });

const TITLE = "Weekly studio call";

let owner: TestUser;
let member: TestUser;
let second: TestUser;
let ownerApi: APIRequestContext;
let community: { id: string; slug: string };

/** Tomorrow's date (YYYY-MM-DD) in UTC, the zone the test accounts' profiles keep. */
const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
const WEEKDAY = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

const calendarTab = (page: Page) => page.goto(`/community/${community.slug}?tab=calendar`);
const upcoming = (page: Page) => page.getByRole("list", { name: "Upcoming events" });
const firstRow = (page: Page) =>
  upcoming(page)
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: TITLE }) })
    .first();

test.beforeAll(async () => {
  owner = await createConfirmedUser("calown");
  member = await createConfirmedUser("calmem");
  second = await createConfirmedUser("calsec");
  ownerApi = await apiFor(owner);
  const name = `Studio ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  community = (await res.json()) as { id: string; slug: string };
  for (const user of [member, second]) {
    const api = await apiFor(user);
    const joined = await api.post(`/api/communities/${community.id}/join`);
    expect(joined.ok(), await joined.text()).toBe(true);
    await api.dispose();
  }
});

test.afterAll(async () => {
  await ownerApi?.dispose();
});

test("the owner creates a weekly event with a capacity of 1 through the form", async ({ page }) => {
  await signInPage(page, owner);
  await calendarTab(page);
  await expect(page.getByRole("heading", { name: "Calendar", level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No upcoming events" })).toBeVisible();

  await page.getByRole("button", { name: "New event" }).click();
  const dialog = page.getByRole("dialog", { name: "New event" });
  // The shared schema's messages, next to their fields, before anything is sent.
  await dialog.getByRole("button", { name: "Create event" }).click();
  await expect(dialog.getByText(CALENDAR_MESSAGES.titleRequired)).toBeVisible();
  await expect(dialog.getByText(CALENDAR_MESSAGES.meetingUrlRequired)).toBeVisible();

  await dialog.getByLabel("Title").fill(TITLE);
  await dialog.getByLabel("Description (optional)").fill("Show your week's work and get feedback.");
  await dialog.getByLabel("Date").fill(tomorrow());
  await dialog.getByLabel("Start time").fill("18:00");
  await dialog.getByLabel("Duration (minutes)").fill("45");
  await expect(dialog.getByLabel("Time zone")).toHaveValue("UTC");
  await dialog.getByLabel("Meeting link").fill("javascript:alert(1)");
  await dialog.getByLabel("Capacity (optional)").fill("1");
  await dialog.getByLabel("Repeat", { exact: true }).selectOption("weekly");
  // The first date's weekday is ticked.
  const weekday = WEEKDAY[new Date(`${tomorrow()}T12:00:00Z`).getUTCDay()];
  await expect(dialog.getByRole("button", { name: weekday, exact: true })).toHaveAttribute("aria-pressed", "true");
  await dialog.getByLabel("After a number of times").check();
  await dialog.getByLabel("Times in all").fill("4");
  await dialog.getByRole("button", { name: "Create event" }).click();
  await expect(dialog.getByText(CALENDAR_MESSAGES.meetingUrlInvalid)).toBeVisible();
  await dialog.getByLabel("Meeting link").fill("https://meet.example.com/studio");
  await dialog.getByRole("button", { name: "Create event" }).click();

  await expect(page.getByText("Event created", { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(upcoming(page).getByRole("heading", { name: TITLE })).toHaveCount(4);
  await expect(firstRow(page)).toContainText("0 of 1 going");
  await expect(firstRow(page)).toContainText("6:00 PM");
});

test("a member finds it in the list and the month view, answers Going, and sees it Up next", async ({ page }) => {
  await signInPage(page, member);
  await calendarTab(page);
  await expect(firstRow(page)).toBeVisible();
  await expect(firstRow(page)).toContainText("Online");
  await expect(firstRow(page)).toContainText("0 of 1 going");
  await expect(page.getByRole("button", { name: "New event" })).toHaveCount(0);
  await expectNoViolations(page, "the Calendar tab (list)");

  await page.getByRole("button", { name: "Month", exact: true }).click();
  const month = page.getByRole("region", { name: /^Month of / });
  const inMonth = month.getByRole("button", { name: new RegExp(`6:00 PM ${TITLE}`) });
  await expect(inMonth.first()).toBeVisible();
  await expectNoViolations(page, "the Calendar tab (month)");

  await inMonth.first().click();
  const dialog = page.getByRole("dialog", { name: TITLE });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/[?&]event=/);
  await expect(dialog.getByText("The link appears 15 minutes before the start.")).toBeVisible();
  await expect(dialog.getByText("0 of 1 going")).toBeVisible();
  await expectNoViolations(page, "the event dialog");

  await dialog.getByRole("button", { name: "Going", exact: true }).click();
  await expect(page.getByText("You're going", { exact: true })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Going", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByText("1 of 1 going")).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Going (1)" })).toBeVisible();
  await expect(dialog.getByText(member.name)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Add to calendar" })).toBeVisible();

  // The address opens the same event after a reload (as notifications link to it).
  await page.reload();
  await expect(page.getByRole("dialog", { name: TITLE })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const upNext = page.getByRole("region", { name: "Up next" });
  await expect(upNext.getByRole("link", { name: TITLE })).toBeVisible();
  await expect(upNext.getByText(/^Starts in /)).toBeVisible();
});

test("a second member finds it full and joins the waitlist", async ({ page }) => {
  await signInPage(page, second);
  await calendarTab(page);
  const row = firstRow(page);
  await expect(row).toContainText("1 of 1 going");
  await expect(row).toContainText("Full — join the waitlist");
  await row.getByRole("button", { name: "Join waitlist" }).click();
  await expect(page.getByText("You're #1 on the waitlist", { exact: true }).first()).toBeVisible();
  await expect(firstRow(page)).toContainText("#1 on the waitlist");
});

test("the owner edits one occurrence, then cancels this and the following ones", async ({ page }) => {
  await signInPage(page, owner);
  await calendarTab(page);
  await firstRow(page).getByRole("button", { name: TITLE }).click();
  await page.getByRole("dialog", { name: TITLE }).getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("dialog", { name: "Edit event" });
  await expect(form.getByLabel("This event", { exact: true })).toBeChecked();
  await expect(form.getByLabel("Title")).toHaveValue(TITLE);
  await form.getByLabel("Title").fill("Studio call: guest critique");
  await form.getByLabel("Capacity (optional)").fill("0");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText(CALENDAR_MESSAGES.capacityInvalid)).toBeVisible();
  await form.getByLabel("Capacity (optional)").fill("2");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Event saved", { exact: true })).toBeVisible();
  // The edited event comes back, changed: the raised capacity let the waitlisted member in. The
  // rest of the series keeps its title.
  const edited = page.getByRole("dialog", { name: "Studio call: guest critique" });
  await expect(edited.getByText("2 of 2 going")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(upcoming(page).getByRole("heading", { name: TITLE })).toHaveCount(3);

  await firstRow(page).getByRole("button", { name: TITLE }).click();
  const next = page.getByRole("dialog", { name: TITLE });
  await next.getByRole("button", { name: "Cancel event" }).click();
  await next.getByLabel("This and following events").check();
  await next.getByRole("button", { name: "Cancel event" }).click();
  await expect(page.getByText("Event cancelled", { exact: true })).toBeVisible();
  await expect(upcoming(page).getByRole("heading", { name: TITLE })).toHaveCount(0);
  await expect(upcoming(page).getByRole("heading", { name: "Studio call: guest critique" })).toBeVisible();
});
