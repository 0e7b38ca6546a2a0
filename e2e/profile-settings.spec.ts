import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { createConfirmedUser, expectSignedIn, logIn, openUserMenuItem } from "./helpers";

test("avatar: only images under 5MB, then upload, show and remove", async ({ page }) => {
  const user = await createConfirmedUser("avatar");
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  const fileInput = edit.locator('input[type="file"]');

  await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(edit.getByText("Please select an image file")).toBeVisible();

  await fileInput.setInputFiles({
    name: "huge.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1),
  });
  await expect(edit.getByText("Image must be less than 5MB")).toBeVisible();

  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: "#c2410c" } })
    .png()
    .toBuffer();
  await fileInput.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await expect(edit.getByText("Your new photo is saved.")).toBeVisible();
  await expect(edit.getByRole("button", { name: "Change photo" })).toBeVisible();
  // The header shows the picture too, served from /media (the open dialog hides the banner role).
  const headerImage = page.locator("header img");
  await expect(headerImage).toHaveAttribute("src", /\/media\//);
  expect(await headerImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await edit.getByRole("button", { name: "Remove" }).click();
  await expect(edit.getByText("Your photo was removed.")).toBeVisible();
  await expect(edit.getByRole("button", { name: "Upload photo" })).toBeVisible();
  await expect(page.locator("header img")).toHaveCount(0);
});

test("notification switches save as they are flipped", async ({ page }) => {
  const user = await createConfirmedUser("notify");
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await edit.getByRole("tab", { name: "Notifications" }).click();

  // SPEC §9 defaults: push off, the rest on.
  await expect(edit.getByRole("switch", { name: "All notifications" })).toBeChecked();
  await expect(edit.getByRole("switch", { name: "Email notifications" })).toBeChecked();
  await expect(edit.getByRole("switch", { name: "In-app notifications" })).toBeChecked();
  await expect(edit.getByRole("switch", { name: "Push notifications" })).not.toBeChecked();
  // No community yet: nothing to choose per community (e2e/notifications.spec.ts flips those).
  await expect(edit.getByText("You haven't joined a community yet.", { exact: false })).toBeVisible();

  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/api/me/notification-settings") && r.ok() && r.request().method() === "PATCH",
  );
  await edit.getByRole("switch", { name: "Push notifications" }).click();
  await saved;
  const savedEmail = page.waitForResponse(
    (r) => r.url().endsWith("/api/me/notification-settings") && r.ok() && r.request().method() === "PATCH",
  );
  await edit.getByRole("switch", { name: "Email notifications" }).click();
  await savedEmail;

  await page.reload();
  await openUserMenuItem(page, "Edit profile");
  await page.getByRole("tab", { name: "Notifications" }).click();
  await expect(page.getByRole("switch", { name: "Push notifications" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Email notifications" })).not.toBeChecked();

  // A failed save says so and puts the switch back.
  await page.route("**/api/me/notification-settings", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({ status: 500, json: { error: { code: "INTERNAL", message: "An unexpected error occurred" } } })
      : route.fallback(),
  );
  await page.getByRole("switch", { name: "In-app notifications" }).click();
  await expect(page.getByText("Failed to update notification settings. Please try again.")).toBeVisible();
  await expect(page.getByRole("switch", { name: "In-app notifications" })).toBeChecked();
});
