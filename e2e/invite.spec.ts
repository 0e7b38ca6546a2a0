import { type APIRequestContext, type Page, expect, request, test } from "@playwright/test";
import {
  BASE_URL,
  DEMO,
  type TestUser,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  uniqueSuffix,
} from "./helpers";
import { PAYMENT_MESSAGES } from "../src/shared/payments";

type CommunityView = {
  id: string;
  slug: string;
  name: string;
  member_count: number;
  invite_code: string | null;
  viewer: { role: string | null };
};

async function signedInApi(email: string, password: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const res = await api.post("/api/auth/sign-in/email", { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

async function community(api: APIRequestContext, idOrSlug: string): Promise<CommunityView> {
  const res = await api.get(`/api/communities/${idOrSlug}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as CommunityView;
}

async function createCommunity(api: APIRequestContext, name: string, settings: Record<string, unknown>) {
  const created = await api.post("/api/communities", { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const patched = await api.patch(`/api/communities/${id}`, { data: settings });
  expect(patched.status(), await patched.text()).toBe(200);
  return community(api, id);
}

/** Communities of owner@hearth.test in the demo seed, tried in order. */
const OWNER_COMMUNITIES = ["creator-growth-lab", "sketchbook-sundays", "indie-founders-club"];

/**
 * An invite link of a community owned by owner@hearth.test, read as the owner. Without the demo
 * communities (an older seed), the owner makes one through the API.
 */
async function ownerInvite(): Promise<CommunityView & { invite_code: string }> {
  const owner = await signedInApi(DEMO.owner, DEMO.password);
  for (const slug of OWNER_COMMUNITIES) {
    const res = await owner.get(`/api/communities/${slug}`);
    if (res.status() !== 200) continue;
    const view = (await res.json()) as CommunityView;
    if (view.viewer.role === "owner" && view.invite_code) return view as CommunityView & { invite_code: string };
  }
  const made = await createCommunity(owner, `Olivia's Circle ${uniqueSuffix().slice(-5)}`, {
    description: "Where Olivia's readers meet.",
  });
  return made as CommunityView & { invite_code: string };
}

async function logInFromDialog(page: Page, user: { email: string; password: string }) {
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.getByLabel("Email").fill(user.email);
  await dialog.getByLabel("Password", { exact: true }).fill(user.password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expectSignedIn(page);
}

const acceptButton = (page: Page) => page.getByRole("button", { name: "Accept Invitation" });

test("a brand-new user accepts an invite: sign in first, back on the invite, then into the community", async ({
  page,
}) => {
  const target = await ownerInvite();
  const newcomer = await createConfirmedUser("invitee");

  await page.goto(`/invite/${target.invite_code}`);
  await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
  await expect(page).toHaveTitle(`Join ${target.name} · Hearth`);
  await expect(page.getByText("You're invited to join")).toBeVisible();
  await expect(page.getByRole("definition").first()).toBeVisible();
  await expect(page.getByRole("term").filter({ hasText: /^Members?$/ })).toBeVisible();
  await expect(page.getByRole("term").filter({ hasText: /^Posts?$/ })).toBeVisible();
  await expectNoViolations(page, "the invite page");

  await acceptButton(page).click();
  await logInFromDialog(page, newcomer);
  // Back on the invite, now signed in: accepting joins.
  await expect(page).toHaveURL(`${BASE_URL}/invite/${target.invite_code}`);
  await acceptButton(page).click();
  await expect(page).toHaveURL(`${BASE_URL}/community/${target.slug}`);

  const view = await community(page.request, target.slug);
  expect(view.viewer.role).toBe("member");
  expect(view.member_count).toBe(target.member_count + 1);

  // The same link again: already a member, straight to the community.
  await page.goto(`/invite/${target.invite_code}`);
  await expect(page.getByText("You are already a member of this community")).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/community/${target.slug}`);
});

test.describe("with an invite of a community made for the test", () => {
  let host: APIRequestContext;
  let paid: CommunityView & { invite_code: string };

  test.beforeAll(async () => {
    const owner: TestUser = await createConfirmedUser("invhost");
    host = await signedInApi(owner.email, owner.password);
    paid = (await createCommunity(host, `Invite Lab ${uniqueSuffix().slice(-6)}`, {
      description: "Small group coaching for makers.\nWeekly calls.",
      type: "paid",
      price: 49,
    })) as CommunityView & { invite_code: string };
  });

  test("accepting the invite of a paid community opens the plan chooser; paying through the card form joins", async ({
    page,
  }) => {
    const member = await createConfirmedUser("invpaid");
    await page.goto("/");
    await page.getByRole("banner").getByRole("button", { name: "Log in" }).click();
    await logInFromDialog(page, member);

    await page.goto(`/invite/${paid.invite_code}`);
    await expect(page.getByRole("heading", { level: 1, name: paid.name })).toBeVisible();
    await expect(page.getByText("$49/month")).toBeVisible();
    await expect(page.getByText("Small group coaching for makers.")).toBeVisible();
    await expect(page.getByText("Choose a plan, then pay to join.")).toBeVisible();
    await expectNoViolations(page, "the invite page of a paid community, signed in");

    await acceptButton(page).click();
    const chooser = page.getByRole("dialog", { name: "Choose your plan" });
    await expect(chooser.getByText("$49/month")).toBeVisible();
    const started = page.waitForRequest((r) => r.url().endsWith("/api/billing/checkout") && r.method() === "POST");
    await chooser.getByRole("button", { name: /^Choose / }).click();
    expect((await started).postDataJSON()).toMatchObject({ product: "tier", invite_code: paid.invite_code });
    await expect(page).toHaveURL(/\/billing\/checkout\//);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel("Name on card").fill("Invited Member");
    await page.getByRole("button", { name: "Pay $49" }).click();
    await expect(page.getByText(PAYMENT_MESSAGES.confirmed)).toBeVisible();
    await expect(page).toHaveURL(`${BASE_URL}/community/${paid.slug}`);

    // The same link again: already a member, straight to the community.
    await page.goto(`/invite/${paid.invite_code}`);
    await expect(page.getByText("You are already a member of this community")).toBeVisible();
    await expect(page).toHaveURL(`${BASE_URL}/community/${paid.slug}`);
  });

  test("an invite of a community with invites turned off says so", async ({ page }) => {
    const closed = (await createCommunity(host, `Closed Door ${uniqueSuffix().slice(-6)}`, {
      invite_enabled: false,
    })) as CommunityView & { invite_code: string };
    await page.goto(`/invite/${closed.invite_code}`);
    await expect(page.getByText("Invites are disabled for this community")).toBeVisible();
    await expectNoViolations(page, "an invite with invites disabled");
    await page.getByRole("link", { name: "Browse Communities" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
  });
});

test("an invalid invite code shows Invalid Invitation with a way to browse communities", async ({ page }) => {
  await page.goto("/invite/this-code-does-not-exist");
  await expect(page.getByRole("heading", { level: 1, name: "Invalid Invitation" })).toBeVisible();
  await expect(page).toHaveTitle("Invalid Invitation · Hearth");
  await expectNoViolations(page, "an invalid invite");
  await page.getByRole("link", { name: "Browse Communities" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Discover communities" })).toBeVisible();

  // Malformed codes too.
  await page.goto("/invite/%E2%9C%93");
  await expect(page.getByRole("heading", { level: 1, name: "Invalid Invitation" })).toBeVisible();
});
