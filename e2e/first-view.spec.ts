import { type APIRequestContext, expect, request, test } from "@playwright/test";
import { BASE_URL, apiFor, createConfirmedUser, signInPage, uniqueSuffix } from "./helpers";

// A page's first view is drawn on the server (src/server/lib/first-view.ts): the HTML carries what
// the visitor would see, drawn from the API's own answers as that visitor, and the browser adopts it.

type Community = { id: string; slug: string };
type Post = { id: string };

async function call<T>(api: APIRequestContext, method: "post" | "patch", path: string, data: unknown) {
  const res = await api[method](path, { data });
  expect(res.ok(), `${method.toUpperCase()} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The page's HTML as a visitor without JavaScript (a crawler, a slow phone) gets it. */
async function pageHtml(path: string, api?: APIRequestContext) {
  const client = api ?? (await request.newContext({ baseURL: BASE_URL }));
  const res = await client.get(path);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/html");
  return res.text();
}

/** The first view's answers, as the page carries them. */
function answers(html: string): [unknown[], unknown, number][] {
  const json = /<script type="application\/json" id="hearth-first-view">(.*?)<\/script>/s.exec(html);
  expect(json, "the page carries its first view's answers").not.toBeNull();
  return (JSON.parse(json![1]) as { answers: [unknown[], unknown, number][] }).answers;
}

let ownerApi: APIRequestContext;
let open: Community;
let post: Post;
const text = `A hearth-side post, drawn by the server ${uniqueSuffix()}`;
// Every way stored text could turn into markup or end the answers' script element.
const hostile = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> $& $' \u2028 <!-- ${uniqueSuffix()}`;

test.beforeAll(async () => {
  const owner = await createConfirmedUser("fvowner");
  ownerApi = await apiFor(owner);
  open = await call<Community>(ownerApi, "post", "/api/communities", { name: `Ember ${uniqueSuffix().slice(-6)}` });
  post = await call<Post>(ownerApi, "post", `/api/communities/${open.id}/posts`, { content: text });
});

test("a post's page arrives drawn: its text and title in the HTML, adopted without asking again, then live", async ({
  page,
}) => {
  const html = await pageHtml(`/post/${post.id}`);
  expect(html).toContain(text);
  expect(html).toMatch(/<title>A hearth-side post, drawn by the server[^<]*· Hearth<\/title>/);
  expect(html).toContain('<div id="root" inert>');
  expect(answers(html).some(([key]) => key.includes(post.id))).toBe(true);

  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  const reads: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith(`/api/posts/${post.id}`)) reads.push(r.url());
  });
  await page.goto(`/post/${post.id}`);
  await expect(page.getByText(text)).toBeVisible();
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  // Adopted, not drawn again: the post and its comments came with the page.
  expect(reads).toEqual([]);
  expect(errors).toEqual([]);
  // The adopted page answers: a visitor who likes it is asked to sign in.
  await page.getByRole("button", { name: /like/i }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("stored text is text in the first view: no markup, no script, and the answers stay whole", async ({ page }) => {
  const bad = await call<Post>(ownerApi, "post", `/api/communities/${open.id}/posts`, { content: hostile });
  const html = await pageHtml(`/post/${bad.id}`);
  expect(html).not.toContain("<script>window.__pwned");
  expect(html).not.toContain('<img src=x onerror="window.__pwned');
  const answer = answers(html).find(([key]) => key.includes(bad.id));
  expect(JSON.stringify(answer?.[1])).toContain(JSON.stringify(hostile).slice(1, -1));

  await page.goto(`/post/${bad.id}`);
  await expect(page.getByText("window.__pwned=1", { exact: false }).first()).toBeVisible();
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("a private community's post is in no one's first view but a member's", async ({ page }) => {
  const secret = `Only for the inner circle ${uniqueSuffix()}`;
  const hidden = await call<Community>(ownerApi, "post", "/api/communities", {
    name: `Hidden ember ${uniqueSuffix().slice(-6)}`,
  });
  await call(ownerApi, "patch", `/api/communities/${hidden.id}`, { visibility: "private" });
  const inner = await call<Post>(ownerApi, "post", `/api/communities/${hidden.id}/posts`, { content: secret });

  const stranger = await createConfirmedUser("fvstranger");
  for (const api of [undefined, await apiFor(stranger)]) {
    for (const path of [`/post/${inner.id}`, `/community/${hidden.slug}`, "/"]) {
      const html = await pageHtml(path, api);
      expect(html, path).not.toContain(secret);
    }
  }
  // The owner's own first view has it.
  expect(await pageHtml(`/post/${inner.id}`, ownerApi)).toContain(secret);

  // A stranger's browser shows the app's not-found page for it.
  await signInPage(page, stranger);
  await page.goto(`/post/${inner.id}`);
  await expect(page.getByRole("heading", { name: "Post not found" })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
});
