import { expect, test } from "@playwright/test";
import { header, uniqueSuffix } from "./helpers";

test("the sign-up form checks the username as it is typed", async ({ page }) => {
  await page.goto("/?auth=signup");
  const dialog = page.getByRole("dialog", { name: "Create your account" });
  const username = dialog.getByLabel("Username");
  const create = dialog.getByRole("button", { name: "Create account" });

  await username.fill("olivia");
  await expect(dialog.getByText("Username is already taken")).toBeVisible();
  await expect(create).toBeDisabled();

  // Capitals are lowered as typed, so OLIVIA is the same name.
  await username.fill("");
  await username.pressSequentially("OLIVIA");
  await expect(username).toHaveValue("olivia");
  await expect(dialog.getByText("Username is already taken")).toBeVisible();

  await username.fill(`fresh_${uniqueSuffix()}`);
  await expect(dialog.getByText("Username is available!")).toBeVisible();
  await expect(dialog.getByText("Username is already taken")).toHaveCount(0);
  await expect(create).toBeEnabled();

  const invalid = "Username must be 3-30 characters (letters, numbers, underscore)";
  await username.fill("ab");
  await expect(dialog.getByText(invalid)).toBeVisible();
  await username.fill("no spaces!");
  await expect(dialog.getByText(invalid)).toBeVisible();
  await username.fill("x".repeat(31));
  // The field stops at 30 characters, which is valid again.
  await expect(username).toHaveValue("x".repeat(30));

  await page.keyboard.press("Escape");
  await expect(header(page).getByRole("button", { name: "Log in" })).toBeVisible();
});
