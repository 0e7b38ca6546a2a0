import { createHmac, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Page, expect, request as playwrightRequest } from "@playwright/test";

export const BASE_URL = "http://localhost:3999";
export const DEMO = { owner: "owner@hearth.test", member: "member@hearth.test", password: "hearth-demo" } as const;

/** Short, unique within and across runs. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
}

export type TestUser = { name: string; username: string; email: string; password: string };

export function newUserData(prefix = "e2e"): TestUser {
  const suffix = uniqueSuffix();
  return {
    name: `Test ${suffix}`,
    username: `${prefix}_${suffix}`.slice(0, 30),
    email: `${prefix}-${suffix}@example.test`,
    password: `first-pass-${suffix}`,
  };
}

type MailMessage = { id: string; to: string; subject: string; text: string; created_at: string };

/** Waits for the newest message to `to` whose subject contains `subject`, in the local outbox. */
export async function waitForMail(to: string, subject: string, notId?: string): Promise<MailMessage> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${BASE_URL}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
    expect(res.ok, `mailbox answered ${res.status}`).toBe(true);
    const { messages } = (await res.json()) as { messages: MailMessage[] };
    const found = messages.find((m) => m.subject.includes(subject) && m.id !== notId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No email "${subject}" for ${to} within 15 s`);
}

/** The first link in a message whose path contains `pathPart`. */
export function linkIn(text: string, pathPart: string): string {
  const links = text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  const link = links.find((l) => l.includes(pathPart));
  if (!link) throw new Error(`No link with ${pathPart} in:\n${text}`);
  return link;
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(`${BASE_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE_URL },
    body: JSON.stringify(body),
    redirect: "manual",
  });
}

/** A fresh account, signed up through the API and confirmed through the emailed link. */
export async function createConfirmedUser(prefix = "e2e"): Promise<TestUser> {
  const user = newUserData(prefix);
  const res = await postJson("/api/auth/sign-up/email", {
    name: user.name,
    username: user.username,
    email: user.email,
    password: user.password,
    callbackURL: "/",
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const mail = await waitForMail(user.email, "Confirm your email");
  const confirm = await fetch(linkIn(mail.text, "/api/auth/verify-email"), { redirect: "manual" });
  expect([200, 302, 303, 307]).toContain(confirm.status);
  return user;
}

/** An API client signed in as `user` (its cookies can be copied into a browser context). */
export async function apiFor(user: TestUser): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const res = await api.post("/api/auth/sign-in/email", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** Signs the browser in through the API (cookies land in the page's context). */
export async function signInPage(page: Page, user: TestUser) {
  const res = await page.context().request.post("/api/auth/sign-in/email", {
    data: { email: user.email, password: user.password },
    headers: { origin: BASE_URL },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret. */
export function totpCode(secretBase32: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secretBase32.replace(/=+$/, "").toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const hmac = createHmac("sha1", bytes).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 0xf;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, "0");
}

export const header = (page: Page) => page.getByRole("banner");

/** Opens the login dialog from the header and signs in. */
export async function logIn(page: Page, email: string, password: string) {
  await header(page).getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
}

export async function expectSignedIn(page: Page) {
  await expect(header(page).getByRole("button", { name: "Open user menu" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

export async function openUserMenuItem(page: Page, item: "View profile" | "Edit profile" | "Sign out") {
  await header(page).getByRole("button", { name: "Open user menu" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

export async function signOut(page: Page) {
  await openUserMenuItem(page, "Sign out");
  await expect(header(page).getByRole("button", { name: "Log in" })).toBeVisible();
}

/** Fails with a readable list when axe finds WCAG 2.1 A/AA violations on the page as it is now. */
export async function expectNoViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, `axe violations on ${what}`).toEqual([]);
}
