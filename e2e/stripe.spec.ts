import { type APIRequestContext, type Page, expect, request as playwrightRequest, test } from "@playwright/test";
import { PAYMENT_MESSAGES as PM } from "../src/shared/payments";
import { type TestUser, linkIn, newUserData, uniqueSuffix } from "./helpers";

// Payments in Stripe mode (issue 18): the second Hearth of playwright.config.ts (port 3998) runs
// with Stripe keys and Connect against the fake Stripe server (port 3997), so the browser goes
// through the fake's hosted pages (onboarding, Checkout, customer portal) and access follows the
// signed webhooks the fake sends back. The owner connects an account and prices two tiers; a member
// pays for one, waits on the confirmation page while the webhook is held back, is in once it
// lands; cancels in the portal and keeps access until the period's end.

const HEARTH = "http://localhost:3998";
const FAKE_STRIPE = "http://127.0.0.1:3997";

test.use({ baseURL: HEARTH, contextOptions: { reducedMotion: "reduce" } });
test.describe.configure({ mode: "serial" });

type MailMessage = { id: string; to: string; subject: string; text: string };
type Community = { id: string; slug: string; name: string };

/** The newest message to `to` with `subject`, in this server's local outbox. */
async function waitForMail(to: string, subject: string): Promise<MailMessage> {
  let found: MailMessage | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${HEARTH}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await res.json()) as { messages: MailMessage[] };
        found = messages.find((m) => m.subject.includes(subject));
        return Boolean(found);
      },
      { message: `an email "${subject}" for ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** A fresh account on the Stripe-mode server, signed up and confirmed through the emailed link. */
async function createConfirmedUser(prefix: string): Promise<TestUser> {
  const user = newUserData(prefix);
  const res = await fetch(`${HEARTH}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: HEARTH },
    body: JSON.stringify({ ...user, callbackURL: "/" }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const mail = await waitForMail(user.email, "Confirm your email");
  const confirm = await fetch(linkIn(mail.text, "/api/auth/verify-email"), { redirect: "manual" });
  expect([200, 302, 303, 307]).toContain(confirm.status);
  return user;
}

async function apiFor(user: TestUser): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: HEARTH, extraHTTPHeaders: { origin: HEARTH } });
  const res = await api.post("/api/auth/sign-in/email", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

async function signInPage(page: Page, user: TestUser) {
  const res = await page.context().request.post("/api/auth/sign-in/email", {
    data: { email: user.email, password: user.password },
    headers: { origin: HEARTH },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The fake Stripe's test controls: keep webhooks back, or send the held ones (answers once delivered). */
async function fakeStripe(control: "webhooks/hold" | "webhooks/release") {
  const res = await fetch(`${FAKE_STRIPE}/test/${control}`, { method: "POST" });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function openSettingsTab(page: Page, community: Community, tab: string) {
  await page.goto(`/community/${community.slug}`);
  await page.getByRole("button", { name: "SETTINGS" }).click();
  const dialog = page.getByRole("dialog", { name: /settings/i });
  await dialog.getByRole("tab", { name: tab }).click();
  return dialog;
}

let owner: TestUser;
let ownerApi: APIRequestContext;
let community: Community;

test.beforeAll(async () => {
  owner = await createConfirmedUser("sowner");
  ownerApi = await apiFor(owner);
  const name = `Stripe Den ${uniqueSuffix()}`.slice(0, 30);
  const res = await ownerApi.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  community = { ...((await res.json()) as { id: string; slug: string }), name };
});

test.afterAll(async () => {
  // A test that failed while deliveries were held must not leave them held for the next.
  await fetch(`${FAKE_STRIPE}/test/webhooks/release`, { method: "POST" }).catch(() => undefined);
  await ownerApi?.dispose();
});

test("an owner connects Stripe through its onboarding and prices two tiers", async ({ page }) => {
  await signInPage(page, owner);
  let dialog = await openSettingsTab(page, community, "Payouts");
  await expect(dialog.getByText("Not connected")).toBeVisible();
  await expect(dialog.getByText("10%")).toBeVisible();
  await dialog.getByRole("button", { name: "Connect Stripe" }).click();

  // The fake's onboarding page, then back to Hearth once the account.updated webhook is delivered.
  await expect(page.getByRole("heading", { name: "Fake Stripe Connect onboarding" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`^${FAKE_STRIPE}/onboarding/acct_`));
  await page.getByRole("button", { name: "Finish onboarding" }).click();
  await expect(page).toHaveURL(`${HEARTH}/community/${community.slug}?settings=payouts`);

  // The status comes from the webhook (processed as a job), not from the return to Hearth.
  await expect
    .poll(async () => {
      const res = await ownerApi.get(`/api/communities/${community.id}/payouts`);
      return ((await res.json()) as { status: string }).status;
    })
    .toBe("active");
  dialog = await openSettingsTab(page, community, "Payouts");
  const payouts = dialog.getByRole("tabpanel", { name: "Payouts" });
  await expect(payouts.getByText("Active", { exact: true })).toBeVisible();
  await expect(payouts.getByText("✓ Takes payments")).toBeVisible();
  await expect(payouts.getByRole("button", { name: "Connect Stripe" })).toHaveCount(0);

  // Two tiers in the Pricing tab.
  await dialog.getByRole("tab", { name: "Pricing" }).click();
  await dialog.getByLabel("Currency").click();
  await page.getByRole("option", { name: "EUR", exact: true }).click();
  await dialog.getByRole("button", { name: "Add tier" }).click();
  const first = dialog.getByRole("listitem", { name: "Tier 1" });
  await first.getByLabel("Name").fill("Basic");
  await first.getByLabel("Monthly price").fill("9");
  await dialog.getByRole("button", { name: "Add tier" }).click();
  const second = dialog.getByRole("listitem", { name: "Tier 2" });
  await second.getByLabel("Name").fill("Pro");
  await second.getByLabel("Description").fill("Monthly live calls");
  await second.getByLabel("Monthly price").fill("29");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Pricing saved.")).toBeVisible();
  await expect(second.getByText("0 subscribers")).toBeVisible();
});

test("a member pays for a tier on Stripe Checkout, is in once the webhook lands, cancels in the portal and keeps access", async ({
  page,
}) => {
  const member = await createConfirmedUser("smember");
  const memberApi = await apiFor(member);
  await signInPage(page, member);

  await page.goto(`/community/${community.slug}`);
  await page
    .getByRole("complementary", { name: `Join ${community.name}` })
    .getByRole("button", { name: /^JOIN/ })
    .click();
  const chooser = page.getByRole("dialog", { name: "Choose your plan" });
  await expect(chooser.getByRole("listitem", { name: "Basic" }).getByText("€9/month")).toBeVisible();
  await chooser.getByRole("listitem", { name: "Pro" }).getByRole("button", { name: "Choose Pro" }).click();

  // Stripe's hosted Checkout (the fake's), for the stored price.
  await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`^${FAKE_STRIPE}/checkout/cs_`));
  await expect(page.getByText("subscription: 29.00 EUR / month")).toBeVisible();

  // The webhook is late: back on Hearth, the page waits and nothing is open yet.
  await fakeStripe("webhooks/hold");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(new RegExp(`^${HEARTH}/billing/checkout/`));
  await expect(page.getByRole("status").getByText(PM.waiting)).toBeVisible();
  await expect(page.getByRole("region", { name: "Order summary" }).getByText("€29/month")).toBeVisible();
  await page.screenshot({ path: "test-results/stripe-checkout-waiting.png", fullPage: true });
  const before = (await (await memberApi.get("/api/billing")).json()) as { subscriptions: unknown[] };
  expect(before.subscriptions).toHaveLength(0);

  // The signed events arrive: the page sees the confirmation and opens the community.
  await fakeStripe("webhooks/release");
  await expect(page.getByText(PM.confirmed)).toBeVisible();
  await expect(page).toHaveURL(`${HEARTH}/community/${community.slug}`);
  await expect(page.getByRole("tablist", { name: "Community sections" })).toBeVisible();

  // /billing: the Pro plan, active, paid; then Stripe's customer portal.
  await page.goto("/billing");
  const sub = page.getByRole("listitem", { name: community.name });
  await expect(sub.getByText("Pro ·")).toBeVisible();
  await expect(sub.getByText("Active", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Manage billing" }).click();
  await expect(page.getByRole("heading", { name: "Fake Stripe customer portal" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page).toHaveURL(`${HEARTH}/billing`);

  // The cancellation reaches Hearth as customer.subscription.updated; /billing shows it.
  type Billing = { subscriptions: Array<{ cancel_at_period_end: boolean; open: boolean; current_period_end: string }> };
  let billing: Billing | undefined;
  await expect
    .poll(async () => {
      billing = (await (await memberApi.get("/api/billing")).json()) as Billing;
      return billing.subscriptions[0]?.cancel_at_period_end;
    })
    .toBe(true);
  expect(billing!.subscriptions[0]!.open).toBe(true);
  expect(new Date(billing!.subscriptions[0]!.current_period_end).getTime()).toBeGreaterThan(
    Date.now() + 25 * 86_400_000,
  );
  await page.reload();
  await expect(sub.getByText(/^Cancelled: access until \w/)).toBeVisible();
  await expect(sub.getByRole("button", { name: "Resume" })).toBeVisible();
  // The first invoice, paid through Stripe (invoice.paid), with Stripe's receipt.
  const payments = page.getByRole("table", { name: "Payments" });
  await expect(payments.getByText("Paid", { exact: true })).toBeVisible();
  await expect(payments.getByRole("link", { name: "Receipt" })).toHaveAttribute(
    "href",
    /^http:\/\/127\.0\.0\.1:3997\//,
  );
  await page.screenshot({ path: "test-results/stripe-billing-cancelled.png", fullPage: true });

  // Still a member until the paid period ends.
  await sub.getByRole("link", { name: community.name }).click();
  await expect(page).toHaveURL(`${HEARTH}/community/${community.slug}`);
  await expect(page.getByRole("tablist", { name: "Community sections" })).toBeVisible();
  await memberApi.dispose();
});
