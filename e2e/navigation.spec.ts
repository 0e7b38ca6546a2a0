import { type Page, expect, test } from "@playwright/test";
import { DEMO, expectSignedIn, header } from "./helpers";

async function signInFromDialog(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.getByLabel("Email").fill(DEMO.member);
  await dialog.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expectSignedIn(page);
}

test("a redirect to another site is never followed after sign-in", async ({ page }) => {
  await page.goto("/u/olivia?auth=login&redirect=%2F%2Fevil.test");
  await expect(page.getByRole("dialog", { name: "Welcome back" })).toBeVisible();
  // The entry point cleans the address bar.
  await expect(page).toHaveURL(/\/u\/olivia$/);
  await signInFromDialog(page);
  await expect(page).toHaveURL("http://localhost:3999/");
});

test("a same-site redirect is followed after sign-in", async ({ page }) => {
  await page.goto("/?auth=login&redirect=%2Fu%2Fmax");
  await signInFromDialog(page);
  await expect(page).toHaveURL(/\/u\/max$/);
  await expect(page.getByRole("heading", { level: 1, name: "Max Member" })).toBeVisible();
});

test("Create Community asks a visitor to log in first, then goes to /create", async ({ page }) => {
  await page.goto("/");
  await header(page).getByRole("button", { name: "Create Community" }).click();
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await expect(dialog.getByText("Please sign in to create a community")).toBeVisible();
  // Not signInFromDialog: the create dialog opens as the login dialog closes, so "no dialog" never holds.
  await dialog.getByLabel("Email").fill(DEMO.member);
  await dialog.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/create$/);
  // Signed in, /create holds the create-community dialog; closing it goes home.
  await page.getByRole("dialog", { name: "Create a community" }).getByRole("button", { name: "Close" }).click();
  await expect(header(page).getByRole("button", { name: "Open user menu" })).toBeVisible();
  await expect(page).toHaveURL("http://localhost:3999/");
  await header(page).getByRole("button", { name: "Create Community" }).click();
  await expect(page).toHaveURL(/\/create$/);
  await expect(page.getByRole("dialog", { name: "Create a community" })).toBeVisible();
});

test("the auth dialog toggles between log in and sign up and starts clean after closing", async ({ page }) => {
  await page.goto("/");
  await header(page).getByRole("button", { name: "Log in" }).click();
  const login = page.getByRole("dialog", { name: "Welcome back" });
  await login.getByLabel("Email").fill("someone@example.test");
  await login.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("dialog", { name: "Create your account" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Welcome back" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.waitForTimeout(400);
  await header(page).getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("dialog", { name: "Welcome back" }).getByLabel("Email")).toHaveValue("");
});

test("a wrong password shows the server's message in the dialog", async ({ page }) => {
  await page.goto("/?auth=login");
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.getByLabel("Email").fill(DEMO.member);
  await dialog.getByLabel("Password", { exact: true }).fill("definitely-wrong");
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(dialog.getByRole("alert")).toContainText(/invalid email or password/i);
});

test("unknown pages and unknown profiles say so", async ({ page }) => {
  await page.goto("/this/does/not/exist");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to home" }).click();
  await expect(page).toHaveURL("http://localhost:3999/");

  await page.goto("/u/nobody_at_all");
  await expect(page.getByRole("heading", { name: "Profile not found" })).toBeVisible();
});

test("when a page fails to load, the crash fallback offers a refresh that recovers", async ({ page }) => {
  // A page chunk that cannot be fetched (say, during a redeploy) makes the route fail to render.
  await page.route("**/assets/user-profile-*.js", (route) => route.abort());
  await page.goto("/u/olivia");
  await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
  await expect(page.getByText("We're sorry for the inconvenience. Please try refreshing the page.")).toBeVisible();

  await page.unroute("**/assets/user-profile-*.js");
  await page.getByRole("button", { name: "Refresh Page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Olivia Owner" })).toBeVisible();
});
