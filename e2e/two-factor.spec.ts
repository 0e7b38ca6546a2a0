import { expect, test } from "@playwright/test";
import { createConfirmedUser, expectSignedIn, logIn, openUserMenuItem, signOut, totpCode } from "./helpers";

test("turn on two-step sign-in, then signing in asks for the code", async ({ page }) => {
  const user = await createConfirmedUser("totp");
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);

  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await edit.getByRole("tab", { name: "Security" }).click();
  await expect(edit.getByText("No authenticator app is set up yet.")).toBeVisible();
  await edit.getByRole("button", { name: "Set up two-step sign-in" }).click();

  await edit.getByLabel("Your password", { exact: true }).fill(user.password);
  const enabled = page.waitForResponse((r) => r.url().endsWith("/api/auth/two-factor/enable") && r.ok());
  await edit.getByRole("button", { name: "Continue" }).click();
  const { totpURI } = (await (await enabled).json()) as { totpURI: string };
  const secret = new URL(totpURI).searchParams.get("secret")!;
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);

  await expect(edit.getByRole("img", { name: "QR code to add Hearth to your authenticator app" })).toBeVisible();
  await expect(edit.getByText(secret)).toBeVisible();
  // A wrong code is refused.
  await edit.getByLabel("Code from your app").fill(totpCode(secret, Date.now() - 10 * 60_000));
  await edit.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(edit.getByRole("alert")).toBeVisible();
  await edit.getByLabel("Code from your app").fill(totpCode(secret));
  await edit.getByRole("button", { name: "Verify and turn on" }).click();

  await expect(edit.getByText("Two-step sign-in is on. Keep these backup codes somewhere safe.")).toBeVisible();
  await expect(edit.getByRole("list", { name: "Backup codes" }).getByRole("listitem")).not.toHaveCount(0);
  await edit.getByLabel("Authenticator name").fill("Kitchen phone");
  await edit.getByRole("button", { name: "Save and finish" }).click();
  const factors = edit.getByRole("list", { name: "Your sign-in factors" });
  await expect(factors.getByText("Kitchen phone")).toBeVisible();
  await expect(factors.getByText("Authenticator app (TOTP)", { exact: false })).toBeVisible();
  await expect(factors.getByText("Verified")).toBeVisible();
  await expect(edit.getByRole("button", { name: "Turn off" })).toBeVisible();
  await edit.getByRole("button", { name: "Close" }).click();

  await signOut(page);

  // Signing in now needs the code.
  await logIn(page, user.email, user.password);
  const step = page.getByRole("dialog", { name: "Two-step verification" });
  await expect(step.getByLabel("Authentication code")).toBeVisible();
  await step.getByLabel("Authentication code").fill("000000");
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(step.getByRole("alert")).toBeVisible();
  await step.getByLabel("Authentication code").fill(totpCode(secret));
  await step.getByRole("button", { name: "Verify" }).click();
  await expectSignedIn(page);

  // The session is a full one: the profile dialog opens with the factor listed.
  await openUserMenuItem(page, "Edit profile");
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByRole("list", { name: "Your sign-in factors" }).getByText("Kitchen phone")).toBeVisible();
});
