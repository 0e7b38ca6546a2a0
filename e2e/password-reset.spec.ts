import { expect, test } from "@playwright/test";
import { createConfirmedUser, expectSignedIn, header, linkIn, logIn, signOut, waitForMail } from "./helpers";

const INVALID_LINK = "Invalid or expired reset link. Please request a new password reset.";

test("forgot password, reset through the emailed link, sign in with the new password only", async ({ page }) => {
  const user = await createConfirmedUser("reset");
  const newPassword = "brand-new-secret-9";

  await page.goto("/");
  await header(page).getByRole("button", { name: "Log in" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Forgot password?" }).click();
  const forgot = page.getByRole("dialog", { name: "Reset your password" });
  await forgot.getByLabel("Email").fill(user.email);
  await forgot.getByRole("button", { name: "Send reset link" }).click();
  const sent = page.getByRole("dialog", { name: "Check your email" });
  await expect(sent.getByText(`If an account exists for ${user.email}`, { exact: false })).toBeVisible();
  await sent.getByRole("button", { name: "Done" }).click();

  const mail = await waitForMail(user.email, "Reset your Hearth password");
  await page.goto(linkIn(mail.text, "/api/auth/reset-password/"));
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();

  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password", { exact: true }).fill("something-else");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  await page.getByLabel("New Password", { exact: true }).fill("abc");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Password must be at least 6 characters long")).toBeVisible();

  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Your password has been reset.")).toBeVisible();
  // Home after 3 s.
  await expect(page).toHaveURL(/localhost:3999\/$/, { timeout: 8_000 });

  // The link works once.
  await page.goto(linkIn(mail.text, "/api/auth/reset-password/"));
  await expect(page.getByText(INVALID_LINK)).toBeVisible();

  await page.goto("/");
  await logIn(page, user.email, user.password);
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await expect(dialog.getByRole("alert")).toContainText(/invalid email or password/i);
  await dialog.getByLabel("Password", { exact: true }).fill(newPassword);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await expectSignedIn(page);
  await signOut(page);
});

test("the reset page refuses a link without a token or with an error", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page.getByText(INVALID_LINK)).toBeVisible();
  await expect(page.getByLabel("New Password", { exact: true })).toHaveCount(0);

  await page.goto("/reset-password?error=INVALID_TOKEN");
  await expect(page.getByText(INVALID_LINK)).toBeVisible();
  await page.getByRole("button", { name: "Request a new link" }).click();
  await expect(page.getByRole("dialog", { name: "Reset your password" })).toBeVisible();
});

test("a made-up token is refused by the server", async ({ page }) => {
  await page.goto("/reset-password?token=not-a-real-token");
  await page.getByLabel("New Password", { exact: true }).fill("valid-password-1");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("valid-password-1");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText(INVALID_LINK)).toBeVisible();
});
