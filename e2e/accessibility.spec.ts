import { expect, test } from "@playwright/test";
import { DEMO, expectNoViolations, expectSignedIn, header, logIn, openUserMenuItem } from "./helpers";

test("home, auth dialog, reset page and a public profile have no WCAG A/AA violations", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoViolations(page, "/");

  await header(page).getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("dialog", { name: "Welcome back" })).toBeVisible();
  await expectNoViolations(page, "the login dialog");

  await page.getByRole("dialog").getByRole("button", { name: "Sign up" }).click();
  const signup = page.getByRole("dialog", { name: "Create your account" });
  await signup.getByLabel("Username").fill("olivia");
  await expect(signup.getByText("Username is already taken")).toBeVisible();
  await expectNoViolations(page, "the signup dialog");

  await page.getByRole("dialog").getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByRole("dialog", { name: "Reset your password" })).toBeVisible();
  await expectNoViolations(page, "the forgot-password dialog");
  await page.keyboard.press("Escape");

  await page.goto("/reset-password?token=abc");
  await expect(page.getByLabel("New Password", { exact: true })).toBeVisible();
  await expectNoViolations(page, "/reset-password");
  await page.goto("/reset-password");
  await expect(page.getByText("Invalid or expired reset link", { exact: false })).toBeVisible();
  await expectNoViolations(page, "/reset-password without a token");

  await page.goto("/u/olivia");
  await expect(page.getByRole("heading", { level: 1, name: "Olivia Owner" })).toBeVisible();
  await expectNoViolations(page, "/u/olivia");

  await page.goto("/u/nobody_at_all");
  await expect(page.getByRole("heading", { name: "Profile not found" })).toBeVisible();
  await expectNoViolations(page, "a missing profile");

  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expectNoViolations(page, "the 404 page");
});

test("the Edit Profile dialog has no WCAG A/AA violations on any tab", async ({ page }) => {
  await page.goto("/");
  await logIn(page, DEMO.member, DEMO.password);
  await expectSignedIn(page);
  await expectNoViolations(page, "/ signed in");

  await header(page).getByRole("button", { name: "Open user menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Edit profile" })).toBeVisible();
  await expectNoViolations(page, "the user menu");
  await page.keyboard.press("Escape");

  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await expect(edit.getByLabel("Headline")).toBeVisible();
  await expectNoViolations(page, "Edit Profile: Profile tab");

  await edit.getByRole("tab", { name: "Notifications" }).click();
  await expect(edit.getByRole("switch", { name: "All notifications" })).toBeVisible();
  await expectNoViolations(page, "Edit Profile: Notifications tab");

  await edit.getByRole("tab", { name: "Security" }).click();
  await expect(edit.getByLabel("Current Password", { exact: true })).toBeVisible();
  await expectNoViolations(page, "Edit Profile: Security tab");
});
