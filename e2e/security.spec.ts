import { expect, test } from "@playwright/test";
import { DEMO, expectSignedIn, logIn, openUserMenuItem } from "./helpers";

test("changing the password with a wrong current password is refused", async ({ page }) => {
  await page.goto("/");
  await logIn(page, DEMO.owner, DEMO.password);
  await expectSignedIn(page);
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await edit.getByRole("tab", { name: "Security" }).click();

  await edit.getByLabel("Current Password", { exact: true }).fill("not-my-password");
  await edit.getByLabel("New Password", { exact: true }).fill("another-pass-1");
  await edit.getByLabel("Confirm New Password", { exact: true }).fill("another-pass-2");
  await edit.getByRole("button", { name: "Update password" }).click();
  await expect(edit.getByText("New passwords do not match")).toBeVisible();

  await edit.getByLabel("Confirm New Password", { exact: true }).fill("another-pass-1");
  await edit.getByRole("button", { name: "Update password" }).click();
  await expect(edit.getByText("Current password is incorrect")).toBeVisible();
  await expect(edit.getByText("signs you out on your other devices", { exact: false })).toBeVisible();

  // Typed but unsaved: closing asks first.
  await edit.getByRole("button", { name: "Close" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Keep editing" }).click();
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel("Current Password", { exact: true })).toHaveValue("not-my-password");
  await page.keyboard.press("Escape");
  await confirm.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The demo password still works.
  await page.reload();
  await expectSignedIn(page);
});

test("closing the profile tab with unsaved edits asks for confirmation", async ({ page }) => {
  await page.goto("/");
  await logIn(page, DEMO.member, DEMO.password);
  await expectSignedIn(page);
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await edit.getByLabel("Location").fill("Somewhere new");
  await page.keyboard.press("Escape");
  const confirm = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await confirm.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await openUserMenuItem(page, "Edit profile");
  await expect(page.getByRole("dialog", { name: "Edit profile" }).getByLabel("Location")).toHaveValue("Toronto");
});
