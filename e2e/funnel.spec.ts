import { type Page, type Request, expect, test } from "@playwright/test";
import {
  BASE_URL,
  type TestUser,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  linkIn,
  newUserData,
  waitForMail,
} from "./helpers";

const GET_STARTED = "Get Started - 14 Day Free Trial";

/** Signs the page's browser context in through the API (the cookie is shared with the page). */
async function signIn(page: Page, user: Pick<TestUser, "email" | "password">) {
  const res = await page.request.post("/api/auth/sign-in/email", {
    data: { email: user.email, password: user.password },
    headers: { origin: BASE_URL },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const slide = (page: Page, n: number, of: number) => page.getByRole("group", { name: `${n} of ${of}` });
const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });

test.describe("/signup", () => {
  test("anonymous: Get Started opens the sign-up dialog, and the confirmed account lands on the plans", async ({
    page,
  }) => {
    const user = newUserData("funnel");
    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Build a community");
    await page.getByRole("button", { name: GET_STARTED }).first().click();

    const dialog = page.getByRole("dialog", { name: "Create your account" });
    await expect(dialog.getByText("Create your account to start your 14-day free trial.")).toBeVisible();
    await dialog.getByLabel("Full name").fill(user.name);
    await dialog.getByLabel("Username").fill(user.username);
    await expect(dialog.getByText("Username is available!")).toBeVisible();
    await dialog.getByLabel("Email").fill(user.email);
    await dialog.getByLabel("Password", { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("dialog", { name: "Check your email" })).toBeVisible();

    // The confirmation link carries the redirect: confirming signs in and opens the plans.
    const mail = await waitForMail(user.email, "Confirm your email");
    await page.goto(linkIn(mail.text, "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/signup\/pricing$/);
    await expect(page.getByRole("radio", { name: "Annual" })).toBeChecked();
  });

  test("anonymous: logging in from the dialog goes to /signup/pricing", async ({ page }) => {
    const user = await createConfirmedUser("funnel");
    await page.goto("/signup");
    await page.getByRole("button", { name: GET_STARTED }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Log in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.getByLabel("Email").fill(user.email);
    await dialog.getByLabel("Password", { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/signup\/pricing$/);
    await expectSignedIn(page);
  });

  test("signed in: Get Started goes straight to /signup/pricing", async ({ page }) => {
    const user = await createConfirmedUser("funnel");
    await signIn(page, user);
    await page.goto("/signup");
    await expectSignedIn(page);
    await page.getByRole("button", { name: GET_STARTED }).first().click();
    await expect(page).toHaveURL(/\/signup\/pricing$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("testimonials rotate every 5 s and stop once a control is used", async ({ page }) => {
    await page.clock.install();
    await page.goto("/signup");
    const carousel = page.getByRole("region", { name: "What creators say" });
    await expect(slide(page, 1, 4)).toContainText("Maya Okafor");
    // Only the shown testimonial is exposed; the others are hidden and inert.
    await expect(carousel.getByRole("group")).toHaveCount(1);

    await page.clock.runFor(5_000);
    await expect(slide(page, 2, 4)).toContainText("Daniel Reyes");
    await page.clock.runFor(5_000);
    await expect(slide(page, 3, 4)).toBeVisible();

    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expect(slide(page, 4, 4)).toContainText("Tom Becker");
    await expect(carousel.getByRole("button", { name: "Play testimonials" })).toBeVisible();
    // Away from the carousel (hovering only holds it), nothing moves any more.
    await page.mouse.move(0, 0);
    await page.clock.runFor(20_000);
    await expect(slide(page, 4, 4)).toBeVisible();

    await carousel.getByRole("button", { name: "Show testimonial 1 of 4" }).click();
    await expect(slide(page, 1, 4)).toBeVisible();
    await carousel.getByRole("button", { name: "Previous testimonial" }).click();
    await expect(slide(page, 4, 4)).toBeVisible();

    // Play starts it again.
    await carousel.getByRole("button", { name: "Play testimonials" }).click();
    await page.mouse.move(0, 0);
    await page.clock.runFor(5_000);
    await expect(slide(page, 1, 4)).toBeVisible();
  });

  test("with reduced motion the testimonials do not rotate by themselves", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.clock.install();
    await page.goto("/signup");
    const carousel = page.getByRole("region", { name: "What creators say" });
    await expect(carousel.getByRole("button", { name: "Play testimonials" })).toBeVisible();
    await page.clock.runFor(20_000);
    await expect(slide(page, 1, 4)).toBeVisible();
  });
});

test.describe("/signup/pricing", () => {
  test("anonymous visitors go home", async ({ page }) => {
    await page.goto("/signup/pricing");
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await page.goto("/signup/payment?plan=monthly");
    await expect(page).toHaveURL(`${BASE_URL}/`);
  });

  test("annual is the default and Most Popular; the chosen plan goes on to the payment modal", async ({ page }) => {
    const user = await createConfirmedUser("funnel");
    await signIn(page, user);
    await page.goto("/signup/pricing");

    const annual = page.getByRole("radio", { name: "Annual" });
    const monthly = page.getByRole("radio", { name: "Monthly" });
    await expect(annual).toBeChecked();
    await expect(monthly).not.toBeChecked();
    await expect(annual).toHaveAccessibleDescription(/Most Popular.*\$97\/month.*Save \$24\/year/);
    await expect(monthly).toHaveAccessibleDescription(/\$99\/month/);

    await page.getByText("$99", { exact: true }).click();
    await expect(monthly).toBeChecked();
    await expect(annual).not.toBeChecked();
    await page.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/signup\/payment\?plan=monthly$/);
    const dialog = page.getByRole("dialog", { name: "Complete your purchase" });
    await expect(dialog.getByText("Hearth Monthly")).toBeVisible();
    await expect(dialog.getByText("$99/month")).toBeVisible();

    // Closing returns to the plans, with the choice kept.
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/signup\/pricing\?plan=monthly$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(monthly).toBeChecked();

    await page.getByText("$97", { exact: true }).click();
    await page.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/signup\/payment\?plan=annual$/);
    // The address changes before the modal renders, and Escape is heard only once it has mounted:
    // the modal moves focus to the card number in the same commit that starts listening for Escape.
    await expect(dialog.getByText("Hearth Annual")).toBeVisible();
    await expect(dialog.getByLabel("Card number")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/signup\/pricing\?plan=annual$/);
  });
});

test.describe("/signup/payment", () => {
  test("card fields format and are required; submit processes for 2 s, then opens the new paid community's setup", async ({
    page,
  }) => {
    const user = await createConfirmedUser("funnel");
    await signIn(page, user);
    const trialRequests: { at: number; request: Request }[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/billing/trial")) trialRequests.push({ at: Date.now(), request });
    });

    await page.goto("/signup/payment?plan=annual");
    const dialog = page.getByRole("dialog", { name: "Complete your purchase" });
    await expect(dialog.getByText("No real charge is made", { exact: false })).toBeVisible();
    const email = dialog.getByLabel("Email");
    await expect(email).toHaveValue(user.email);
    await expect(email).not.toBeEditable();

    // Everything required: the submit is blocked with a message per field.
    const submit = dialog.getByRole("button", { name: "Start Free Trial" });
    await submit.click();
    await expect(dialog.getByText("Please enter your card number")).toBeVisible();
    await expect(dialog.getByText("Please enter the expiry date")).toBeVisible();
    await expect(dialog.getByText("Please enter the CVC")).toBeVisible();
    await expect(dialog.getByText("Please enter the name on the card")).toBeVisible();
    await expect(dialog.getByLabel("Card number")).toBeFocused();

    const number = dialog.getByLabel("Card number");
    await number.pressSequentially("4242x4242-4242 4242 9999");
    await expect(number).toHaveValue("4242 4242 4242 4242");
    expect((await number.inputValue()).length).toBe(19);
    const expiry = dialog.getByLabel("Expiry (MM/YY)");
    await expiry.pressSequentially("1234");
    await expect(expiry).toHaveValue("12/34");
    await expiry.fill("");
    await expiry.pressSequentially("4");
    await expect(expiry).toHaveValue("04/");
    await expiry.pressSequentially("35");
    await expect(expiry).toHaveValue("04/35");
    const cvc = dialog.getByLabel("CVC");
    await cvc.pressSequentially("1a2b34 5");
    await expect(cvc).toHaveValue("1234");
    await expect(dialog.getByText("Please enter the name on the card")).toBeVisible();
    await dialog.getByLabel("Name on card").fill("Funnel Tester");
    await expect(dialog.getByText("Please enter", { exact: false })).toHaveCount(0);
    expect(trialRequests).toHaveLength(0);

    const clickedAt = Date.now();
    await submit.click();
    await expect(dialog.getByRole("button", { name: "Processing payment…" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Processing payment…" })).toBeDisabled();
    expect(trialRequests, "no request before the 2-second processing state ends").toHaveLength(0);

    const local = user.email
      .split("@")[0]
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-");
    await expect(page).toHaveURL(new RegExp(`/community/${local}\\d{4}/setup$`));
    expect(trialRequests).toHaveLength(1);
    expect(trialRequests[0].at - clickedAt).toBeGreaterThanOrEqual(1_900);

    // Only the plan and the request id went to the server: no card data at all.
    const sent = trialRequests[0].request.postData() ?? "";
    const body = JSON.parse(sent) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["plan", "request_id"]);
    expect(body.plan).toBe("annual");
    for (const secret of ["4242", "04/35", "1234", "Funnel Tester"]) expect(sent).not.toContain(secret);

    // The plan and its 14-day trial are on the account, with the new community.
    const plan = (await (await page.request.get("/api/billing/plan")).json()) as {
      plan: string;
      trial_ends_at: string;
      community: { slug: string };
    };
    expect(plan.plan).toBe("annual");
    const days = (new Date(plan.trial_ends_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);
    expect(page.url()).toContain(`/community/${plan.community.slug}/setup`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("/free-trial", () => {
  test("a tab shows its slide, and a slide change selects its tab", async ({ page }) => {
    await page.goto("/free-trial");
    const carousel = page.getByRole("region", { name: "Revenue streams", exact: true });
    await carousel.scrollIntoViewIfNeeded();
    await expect(page.getByRole("tab")).toHaveText([
      "Courses",
      "Coaching",
      "Communities",
      "Newsletters",
      "Memberships",
      "Podcasts",
    ]);
    await expect(tab(page, "Courses")).toHaveAttribute("aria-selected", "true");

    await tab(page, "Newsletters").click();
    await expect(tab(page, "Newsletters")).toHaveAttribute("aria-selected", "true");
    const newsletters = page.getByRole("tabpanel", { name: "Newsletters" });
    await expect(newsletters).toBeInViewport({ ratio: 0.95 });
    await expect(newsletters).toContainText("Turn readers into regulars");
    await expect(page.getByRole("tabpanel", { name: "Courses", includeHidden: true })).not.toBeInViewport();

    await carousel.getByRole("button", { name: "Next slide" }).click();
    await expect(tab(page, "Memberships")).toHaveAttribute("aria-selected", "true");
    await expect(tab(page, "Newsletters")).toHaveAttribute("aria-selected", "false");
    await expect(page.getByRole("tabpanel", { name: "Memberships" })).toBeInViewport({ ratio: 0.95 });

    // Keyboard: arrows move along the tabs, and the slides follow.
    await tab(page, "Memberships").focus();
    await page.keyboard.press("ArrowRight");
    await expect(tab(page, "Podcasts")).toBeFocused();
    await expect(tab(page, "Podcasts")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight");
    await expect(tab(page, "Courses")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: "Courses" })).toBeInViewport({ ratio: 0.95 });
  });

  test("the slider advances by itself every 5 s, can be paused, and keeps still with reduced motion", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto("/free-trial");
    const carousel = page.getByRole("region", { name: "Revenue streams", exact: true });
    await carousel.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await expect(tab(page, "Courses")).toHaveAttribute("aria-selected", "true");
    await page.clock.runFor(5_500);
    await expect(tab(page, "Coaching")).toHaveAttribute("aria-selected", "true");
    await page.clock.runFor(5_000);
    await expect(tab(page, "Communities")).toHaveAttribute("aria-selected", "true");

    await carousel.getByRole("button", { name: "Pause slides" }).click();
    await expect(carousel.getByRole("button", { name: "Play slides" })).toBeVisible();
    await page.mouse.move(0, 0);
    await page.clock.runFor(15_000);
    await expect(tab(page, "Communities")).toHaveAttribute("aria-selected", "true");

    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.reload();
    await carousel.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await expect(carousel.getByRole("button", { name: "Play slides" })).toBeVisible();
    await page.clock.runFor(15_000);
    await expect(tab(page, "Courses")).toHaveAttribute("aria-selected", "true");
    // Moving it by hand still works, at once.
    await tab(page, "Podcasts").click();
    await expect(page.getByRole("tabpanel", { name: "Podcasts" })).toBeInViewport({ ratio: 0.95 });
  });

  test("the start-trial card: an empty email does nothing, an email opens the sign-up dialog with it", async ({
    page,
  }) => {
    await page.goto("/free-trial");
    const card = page.getByRole("region", { name: "Start your free trial" });
    await expect(card.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(card).toContainText("$89/month plus applicable taxes after the trial");
    await expect(card).toContainText("No credit card required, cancel anytime");

    const email = card.getByLabel("Email address");
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveAttribute("required", "");
    await card.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/free-trial$/);

    await email.fill("new-creator@example.test");
    await card.getByRole("button", { name: "Start Free Trial" }).click();
    const dialog = page.getByRole("dialog", { name: "Create your account" });
    await expect(dialog.getByLabel("Email")).toHaveValue("new-creator@example.test");
    await page.keyboard.press("Escape");

    // Without Google configured here, Google's button offers the email sign-up instead.
    await card.getByRole("button", { name: "Continue with Google" }).click();
    await expect(
      page.getByRole("dialog", { name: "Create your account" }).getByText("Google sign-in is not set up", {
        exact: false,
      }),
    ).toBeVisible();
  });

  test("stats, plan texts, footer lists, and the closing call to action back to the top", async ({ page }) => {
    await page.goto("/free-trial");
    const stats = page.getByRole("region", { name: "Hearth in numbers" });
    await expect(stats.getByRole("definition")).toHaveText(["50,000+", "$500M+", "5M+", "4.9/5"]);
    await expect(stats.getByRole("term")).toHaveText(["creators", "earned by creators", "members", "average rating"]);
    const plan = page.getByRole("region", { name: "One plan to start with everything" });
    for (const item of [
      "0% transaction fee",
      "Unlimited landing pages",
      "7,500 marketing emails",
      "1 product plus 1 community",
      "250 contacts",
      "Group onboarding call",
      "AI features",
      "Creator studio",
    ]) {
      await expect(plan.getByRole("listitem").filter({ hasText: item })).toBeVisible();
    }
    await expect(plan).toContainText("$89/month");
    await expect(
      page.getByRole("region", { name: "Built by creators like you" }).getByRole("listitem"),
    ).not.toHaveCount(0);
    await expect(page.getByRole("region", { name: "Creators who made the move" })).toBeVisible();

    // One footer: the page's own, with its four lists.
    await expect(page.getByRole("contentinfo")).toHaveCount(1);
    const footer = page.getByRole("contentinfo");
    for (const list of ["Product", "Company", "Resources", "Legal"]) {
      await expect(footer.getByRole("heading", { name: list })).toBeVisible();
    }

    const closing = page.getByRole("button", { name: "Start your free trial" });
    await closing.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await closing.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByLabel("Email address")).toBeFocused();
  });
});

test("the funnel's four pages have no WCAG A/AA violations", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/signup");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoViolations(page, "/signup");

  await page.goto("/free-trial");
  await expect(page.getByRole("tab", { name: "Courses" })).toBeVisible();
  await expectNoViolations(page, "/free-trial");

  const user = await createConfirmedUser("funnel");
  await signIn(page, user);
  await page.goto("/signup/pricing");
  await expect(page.getByRole("radio", { name: "Annual" })).toBeChecked();
  await expectNoViolations(page, "/signup/pricing");

  await page.goto("/signup/payment?plan=monthly");
  const dialog = page.getByRole("dialog", { name: "Complete your purchase" });
  await expect(dialog).toBeVisible();
  await expectNoViolations(page, "/signup/payment");
  await dialog.getByRole("button", { name: "Start Free Trial" }).click();
  await expect(dialog.getByText("Please enter your card number")).toBeVisible();
  await expectNoViolations(page, "/signup/payment with errors");
});

test("on a phone the marketing pages never scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/signup", "/free-trial"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The landing page's sections under the hero come as their own chunk, with the footer.
    await expect(page.getByRole("contentinfo")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(390);
  }
});
