import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { PAYMENT_MESSAGES as PM } from "../src/shared/payments";
import {
  BASE_URL,
  type TestUser,
  apiFor,
  createConfirmedUser,
  expectNoViolations,
  header,
  signInPage,
  uniqueSuffix,
} from "./helpers";

// Payments (issue 18) with the simulated provider: a member pays for a tier through the card form,
// waits for the confirmation and is in; on /billing cancels and keeps access until the period
// ends; an owner prices two tiers in the Pricing tab and the landing's chooser shows them.

test.use({ contextOptions: { reducedMotion: "reduce" } });

type Community = { id: string; slug: string; name: string };

let owner: TestUser;
let ownerApi: APIRequestContext;

async function createCommunity(prefix: string): Promise<Community> {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return { ...((await res.json()) as { id: string; slug: string }), name };
}

async function setPricing(c: Community, tiers: object[], currency = "eur") {
  const res = await ownerApi.put(`/api/communities/${c.id}/pricing`, {
    data: { currency, grace_days: 7, tiers },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Types a card into the simulated form (the numbers stay in the browser) and pays. */
export async function payWithCard(page: Page, button: string | RegExp) {
  await expect(page).toHaveURL(/\/billing\/checkout\//);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Test Member");
  await page.getByRole("button", { name: button }).click();
}

test.beforeAll(async () => {
  owner = await createConfirmedUser("bowner");
  ownerApi = await apiFor(owner);
});

test.afterAll(async () => {
  await ownerApi?.dispose();
});

test("a member pays for a tier through the card form, is in, cancels on /billing and keeps access until the period ends", async ({
  page,
}) => {
  const den = await createCommunity("Paid Den");
  await setPricing(den, [
    {
      name: "Standard",
      description: "Weekly calls",
      free: false,
      monthly_amount: 1500,
      annual_amount: null,
      trial_days: 0,
    },
  ]);
  const member = await createConfirmedUser("bmember");
  await signInPage(page, member);

  await page.goto(`/community/${den.slug}`);
  const card = page.getByRole("complementary", { name: `Join ${den.name}` });
  await card.getByRole("button", { name: "JOIN €15/month" }).click();
  const chooser = page.getByRole("dialog", { name: "Choose your plan" });
  const standard = chooser.getByRole("listitem", { name: "Standard" });
  await expect(standard.getByText("€15/month")).toBeVisible();
  await expect(standard.getByText("Weekly calls")).toBeVisible();
  await expectNoViolations(page, "the plan chooser");
  await standard.getByRole("button", { name: "Choose Standard" }).click();

  // The checkout page: the summary, then the card form; the card never leaves the browser.
  const sent: string[] = [];
  page.on("request", (r) => r.method() === "POST" && sent.push(r.postData() ?? ""));
  await expect(page.getByRole("region", { name: "Order summary" }).getByText("€15/month")).toBeVisible();
  await payWithCard(page, "Pay €15");
  await expect(page.getByText(PM.waiting)).toBeVisible();
  await expect(page.getByText(PM.confirmed)).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/community/${den.slug}`);
  await expect(page.getByRole("tablist", { name: "Community sections" })).toBeVisible();
  expect(sent.join("\n")).not.toContain("4242");

  // Billing, from the user menu.
  await header(page).getByRole("button", { name: "Open user menu" }).click();
  await page.getByRole("menuitem", { name: "Billing" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/billing`);
  const sub = page.getByRole("listitem", { name: den.name });
  await expect(sub.getByText("Standard ·")).toBeVisible();
  await expect(sub.getByText("€15/month")).toBeVisible();
  await expect(sub.getByText("Active", { exact: true })).toBeVisible();
  await expect(sub.getByText(/^Next charge: /)).toBeVisible();
  const payments = page.getByRole("table", { name: "Payments" });
  await expect(
    payments.getByRole("cell", { name: "€15.00" }).or(payments.getByRole("cell", { name: "€15" })),
  ).toBeVisible();
  await expectNoViolations(page, "the billing page");
  await page.screenshot({ path: "test-results/billing-page.png", fullPage: true });

  await sub.getByRole("button", { name: "Cancel" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Cancel ${den.name}?` });
  await expect(confirm.getByText(/You keep access until /)).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel membership" }).click();
  await expect(page.getByText(PM.cancelScheduled)).toBeVisible();
  await expect(sub.getByText(/^Cancelled: access until \w/)).toBeVisible();
  await expect(sub.getByRole("button", { name: "Resume" })).toBeVisible();

  // Still a member until the paid period ends.
  await sub.getByRole("link", { name: den.name }).click();
  await expect(page.getByRole("tablist", { name: "Community sections" })).toBeVisible();
});

test("an owner prices two tiers in the Pricing tab, one with an annual price; the landing's chooser shows them", async ({
  page,
}) => {
  const studio = await createCommunity("Tier Studio");
  await signInPage(page, owner);
  await page.goto(`/community/${studio.slug}`);
  await page.getByRole("button", { name: "SETTINGS" }).click();
  const dialog = page.getByRole("dialog", { name: /settings/i });
  await dialog.getByRole("tab", { name: "Pricing" }).click();
  await expect(
    dialog.getByText("A price change applies to new subscribers; existing ones keep their price."),
  ).toBeVisible();

  await dialog.getByLabel("Currency").click();
  await page.getByRole("option", { name: "EUR", exact: true }).click();
  await dialog.getByRole("button", { name: "Add tier" }).click();
  const first = dialog.getByRole("listitem", { name: "Tier 1" });
  await first.getByLabel("Name").fill("Basic");
  await first.getByLabel("Description").fill("The community and its posts");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(first.getByText("A paid tier needs a monthly price")).toBeVisible();
  await first.getByLabel("Monthly price").fill("9");

  await dialog.getByRole("button", { name: "Add tier" }).click();
  const second = dialog.getByRole("listitem", { name: "Tier 2" });
  await second.getByLabel("Name").fill("Pro");
  await second.getByLabel("Monthly price").fill("29");
  await second.getByLabel("Annual price (optional)").fill("290");
  await second.getByLabel("Trial days").fill("14");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Pricing saved.")).toBeVisible();
  await expect(second.getByText("0 subscribers")).toBeVisible();
  await expectNoViolations(page, "the Pricing tab");

  const visitor = await createConfirmedUser("bvisit");
  await page.context().clearCookies();
  await signInPage(page, visitor);
  await page.goto(`/community/${studio.slug}`);
  await page
    .getByRole("complementary", { name: `Join ${studio.name}` })
    .getByRole("button", { name: "JOIN €9/month" })
    .click();
  const chooser = page.getByRole("dialog", { name: "Choose your plan" });
  await expect(chooser.getByRole("listitem", { name: "Basic" }).getByText("€9/month")).toBeVisible();
  await expect(
    chooser.getByRole("listitem", { name: "Pro" }).getByText("Free for 14 days, then €29/month"),
  ).toBeVisible();
  await chooser.getByRole("button", { name: "Annual" }).click();
  await expect(
    chooser.getByRole("listitem", { name: "Pro" }).getByText("Free for 14 days, then €290/year"),
  ).toBeVisible();
  await expect(chooser.getByRole("listitem", { name: "Basic" }).getByText("Monthly only")).toBeVisible();
  await page.screenshot({ path: "test-results/plan-chooser.png" });
});
