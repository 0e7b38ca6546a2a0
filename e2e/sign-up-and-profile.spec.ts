import { expect, test } from "@playwright/test";
import { expectSignedIn, header, linkIn, newUserData, openUserMenuItem, signOut, waitForMail } from "./helpers";

test("sign up, confirm by email, edit the profile, see it public, sign out", async ({ page }) => {
  const user = newUserData("signup");

  await page.goto("/");
  await header(page).getByRole("button", { name: "Log in" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign up" }).click();
  const dialog = page.getByRole("dialog", { name: "Create your account" });
  await dialog.getByLabel("Full name").fill(user.name);
  // Typed in capitals, kept in lowercase.
  await dialog.getByLabel("Username").fill(user.username.toUpperCase());
  await expect(dialog.getByLabel("Username")).toHaveValue(user.username);
  await expect(dialog.getByText("Username is available!")).toBeVisible();
  await dialog.getByLabel("Email").fill(user.email);
  await dialog.getByLabel("Password", { exact: true }).fill("Sturdy-Pass-42");
  await expect(dialog.getByText("Very Strong")).toBeVisible();
  await dialog.getByRole("button", { name: "Create account" }).click();

  const success = page.getByRole("dialog", { name: "Check your email" });
  await expect(success.getByText(`We sent a confirmation email to ${user.email}`, { exact: false })).toBeVisible();
  await success.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const mail = await waitForMail(user.email, "Confirm your email");
  await page.goto(linkIn(mail.text, "/api/auth/verify-email"));
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page);

  // Edit the profile.
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await expect(edit.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
  const headline = `Maker of small useful things ${user.username}`;
  await edit.getByLabel("Headline").fill(headline);
  await expect(edit.getByText(`${headline.length}/160`)).toBeVisible();
  await edit.getByLabel("Bio").fill("I bake bread.\nAnd I write about it.");
  await edit.getByRole("combobox", { name: "Timezone" }).click();
  await page.getByRole("option", { name: "Tokyo" }).click();
  await expect(edit.getByRole("combobox", { name: "Timezone" })).toHaveText(/Tokyo/);
  await edit.getByLabel("Website").fill("https://bread.example.test/journal");
  await edit.getByRole("button", { name: "Save changes" }).click();
  const saved = edit.getByText("Your profile has been updated.");
  await expect(saved).toBeVisible();
  // Success messages vanish after 3 s.
  await expect(saved).toBeHidden({ timeout: 6_000 });
  await edit.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Persisted across a reload (the session cookie survives too).
  await page.reload();
  await expectSignedIn(page);
  await openUserMenuItem(page, "Edit profile");
  const again = page.getByRole("dialog", { name: "Edit profile" });
  await expect(again.getByLabel("Headline")).toHaveValue(headline);
  await expect(again.getByLabel("Bio")).toHaveValue("I bake bread.\nAnd I write about it.");
  await expect(again.getByRole("combobox", { name: "Timezone" })).toHaveText(/Tokyo/);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The public profile shows it.
  await openUserMenuItem(page, "View profile");
  await expect(page).toHaveURL(new RegExp(`/u/${user.username}$`));
  await expect(page.getByRole("heading", { level: 1, name: user.name })).toBeVisible();
  await expect(page.getByText(`@${user.username}`)).toBeVisible();
  await expect(page.getByText(headline)).toBeVisible();
  await expect(page.getByText("I bake bread.")).toBeVisible();
  const website = page.getByRole("link", { name: /Website/ });
  await expect(website).toHaveAttribute("href", "https://bread.example.test/journal");
  await expect(website).toHaveAttribute("rel", "noopener noreferrer nofollow");

  await signOut(page);
  await expect(header(page).getByRole("button", { name: "Open user menu" })).toHaveCount(0);
});
