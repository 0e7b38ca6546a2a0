import { readFileSync } from "node:fs";
import { type APIRequestContext, type Locator, type Page, expect, test } from "@playwright/test";
import sharp from "sharp";
import { UPLOAD_MESSAGES } from "../src/shared/uploads";
import {
  BASE_URL,
  apiFor,
  createConfirmedUser,
  expectNoViolations,
  expectSignedIn,
  header,
  logIn,
  openUserMenuItem,
  uniqueSuffix,
  signInPage,
} from "./helpers";

// Uploads end to end: pictures shown as the variants the server made, a video uploaded from the
// composer and played in the feed, an SVG whose script never runs, and a private community's
// files kept from people outside it.

test.use({ contextOptions: { reducedMotion: "reduce" } });

/** A 1.2-second VP8 WebM (320×180) recorded once from a canvas with Chromium's MediaRecorder. */
const CLIP = readFileSync(new URL("./fixtures/clip.webm", import.meta.url));

const png = (color: string, width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

const ICON_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#c2410c"/><circle cx="32" cy="32" r="14" fill="#fed7aa"/></svg>`,
);

/** Every way an SVG could try to run script: a <script>, an event attribute, HTML inside foreignObject. */
const HOSTILE_SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"
  onload="fetch('/api/pwned?via=onload');document.title='pwned';alert('onload')">
  <script>fetch('/api/pwned?via=script');try{window.parent.__pwned=true}catch(e){}document.title='pwned';alert('script')</script>
  <rect width="64" height="64" rx="14" fill="#0f766e"/>
  <foreignObject width="64" height="64">
    <body xmlns="http://www.w3.org/1999/xhtml">
      <script>fetch('/api/pwned?via=foreignObject');try{window.parent.__pwned=true}catch(e){}alert('foreignObject')</script>
      <img src="/api/pwned?via=img" onerror="fetch('/api/pwned?via=onerror')"/>
    </body>
  </foreignObject>
</svg>`);

async function createCommunity(api: APIRequestContext, prefix: string) {
  const name = `${prefix} ${uniqueSuffix()}`.slice(0, 30);
  const res = await api.post("/api/communities", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return { name, ...((await res.json()) as { id: string; slug: string }) };
}

/** The picture arrived and decoded (lazy images are scrolled to first). */
async function expectLoaded(img: Locator) {
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { timeout: 10_000 })
    .toBeGreaterThan(0);
}

const postCard = (page: Page, text: string) => page.getByRole("article").filter({ hasText: text });

async function openComposer(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Write something..." }).click();
  const dialog = page.getByRole("dialog", { name: "Create post" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function chooseType(dialog: Locator, type: "Image" | "Video") {
  await dialog
    .locator("label")
    .filter({ hasText: new RegExp(`^${type}$`) })
    .click();
  await expect(dialog.getByRole("radio", { name: type })).toBeChecked();
}

/** Posts one image from the composer, through the file chooser its "Choose images" button opens. */
async function postImage(page: Page, content: string, buffer: Buffer) {
  const dialog = await openComposer(page);
  await chooseType(dialog, "Image");
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Choose images" }).click();
  await (await chooser).setFiles({ name: "photo.png", mimeType: "image/png", buffer });
  await expect(dialog.getByRole("list", { name: "Chosen images" }).getByRole("listitem")).toHaveCount(1);
  await expect(dialog.getByRole("progressbar")).toHaveCount(0, { timeout: 20_000 });
  await dialog.getByLabel("Post content").fill(content);
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  return postCard(page, content);
}

test("pictures: an avatar, a community's icon and cover and a post's image are shown as their variants", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await createConfirmedUser("pics");
  await page.goto("/");
  await logIn(page, user.email, user.password);
  await expectSignedIn(page);

  // Avatar: the header shows the medium variant.
  await openUserMenuItem(page, "Edit profile");
  const edit = page.getByRole("dialog", { name: "Edit profile" });
  await edit
    .getByLabel("Choose a profile photo")
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await png("#0f766e", 400, 400) });
  await expect(edit.getByText("Your new photo is saved.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(edit).toHaveCount(0);
  const avatar = header(page).locator("img");
  await expect(avatar).toHaveAttribute("src", /^\/media\/user-avatars\/[^?]+-medium\.webp$/);
  await expectLoaded(avatar);

  // A community, and on its setup page an icon (SVG) and a cover.
  const name = `Pictures ${uniqueSuffix()}`.slice(0, 30);
  await header(page).getByRole("button", { name: "Create Community" }).click();
  const create = page.getByRole("dialog", { name: "Create a community" });
  await create.getByLabel("Community name").fill(name);
  await create.getByRole("button", { name: "Create community" }).click();
  await expect(page).toHaveURL(/\/community\/[a-z0-9-]+\/setup$/);
  const slug = new URL(page.url()).pathname.split("/")[2];
  await page.getByRole("button", { name: "Upload images" }).click();
  const settings = page.getByRole("dialog", { name: "Community settings" });
  await settings
    .getByLabel("Choose an icon (SVG)")
    .setInputFiles({ name: "icon.svg", mimeType: "image/svg+xml", buffer: ICON_SVG });
  await expect(settings.getByText("Icon saved.")).toBeVisible();
  await settings
    .getByLabel("Choose a cover image")
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await png("#ea580c", 1084, 576) });
  await expect(settings.getByText("Cover saved.")).toBeVisible();
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings).toHaveCount(0);

  const preview = page.getByRole("complementary", { name: "Preview" });
  const cover = preview.locator('img[src*="/cover-"]');
  const icon = preview.locator('img[src$=".svg"]');
  await expect(cover).toHaveAttribute("src", /^\/media\/community-assets\/[\w-]+\/cover-[\da-f-]{36}\.webp$/);
  await expect(icon).toHaveAttribute("src", /^\/media\/community-assets\/[\w-]+\/icon-[\da-f-]{36}\.svg$/);
  await expectLoaded(cover);
  await expectLoaded(icon);

  // An image post: the feed shows the medium variant; the viewer opens the original.
  await page.goto(`/community/${slug}`);
  const card = await postImage(page, "Sunday's still life", await png("#7c3aed", 1600, 1200));
  const shown = card.getByRole("button", { name: "View image 1 of 1" }).locator("img");
  await expect(shown).toHaveAttribute(
    "src",
    /^\/media\/community-assets\/[\w-]+\/posts\/[\w-]+-(medium|thumbnail)\.webp$/,
  );
  await expectLoaded(shown);
  // The variant is smaller than the picture; the viewer shows the original at its full size.
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThan(1600);
  const original = (await shown.getAttribute("src"))!.replace(/-(medium|thumbnail)\.webp$/, ".webp");
  await card.getByRole("button", { name: "View image 1 of 1" }).click();
  const viewer = page.getByRole("dialog", { name: /Images from/ });
  const full = viewer.getByRole("img", { name: "Image 1 of 1" });
  await expect(full).toHaveAttribute("src", original);
  await expectLoaded(full);
  expect(await full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
});

test("a video post: checks in the browser, progress and Cancel, then the uploaded clip plays in the feed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const owner = await createConfirmedUser("video");
  const api = await apiFor(owner);
  const community = await createCommunity(api, "Clips");
  await api.dispose();
  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}`);
  const dialog = await openComposer(page);
  await chooseType(dialog, "Video");
  const picker = dialog.getByLabel("Upload video");
  await expect(picker).toHaveAttribute("accept", "video/mp4,video/quicktime,video/x-msvideo,video/webm");
  await expect(picker).toHaveAccessibleDescription(/MP4, MOV, AVI or WebM, up to 500MB/);
  await page.screenshot({ path: test.info().outputPath("composer-video.png") });
  await expectNoViolations(page, "the composer (video)");

  // The browser refuses what is not a video, and a video over 500MB, with the spec's messages.
  await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a video") });
  await expect(dialog.getByText(UPLOAD_MESSAGES.pleaseUploadVideo)).toBeVisible();
  // A 500MB file is not made for the test: a small one claims the size (the check reads file.size).
  await picker.evaluate((input: HTMLInputElement) => {
    const file = new File([new Uint8Array(64)], "feature-film.mp4", { type: "video/mp4" });
    const transfer = new DataTransfer();
    transfer.items.add(file);
    Object.defineProperty(transfer.files[0], "size", { value: 500 * 1024 * 1024 + 1 });
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await expect(dialog.getByText(UPLOAD_MESSAGES.videoTooLarge)).toBeVisible();

  // The server decides from the bytes: its message is shown as it comes.
  await picker.setInputFiles({
    name: "fake.mp4",
    mimeType: "video/mp4",
    buffer: Buffer.from("plain text ".repeat(50)),
  });
  await expect(dialog.getByText("Invalid file type. Accepted types: .mp4, .mov, .avi, .webm")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Try again" })).toBeVisible();

  // A slow connection: the bar moves with a percentage, Post waits, Cancel stops the upload.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const throttle = (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  await throttle(256 * 1024);
  const long = Buffer.concat([CLIP, Buffer.alloc(4 * 1024 * 1024)]);
  await picker.setInputFiles({ name: "long-take.webm", mimeType: "video/webm", buffer: long });
  const bar = dialog.getByRole("progressbar", { name: "Uploading long-take.webm" });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  await expect(dialog.getByText(/^\d{1,2}%$/)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Post", exact: true })).toBeDisabled();
  await expect(page.getByRole("status").filter({ hasText: "Uploading video…" })).toBeVisible();
  await dialog.getByLabel("Post content").fill("Our first clip");
  await page.screenshot({ path: test.info().outputPath("composer-video-upload.png") });
  await expectNoViolations(page, "the composer while a video uploads");
  const aborted = page.waitForEvent("requestfailed", (r) => new URL(r.url()).pathname === "/api/upload");
  await dialog.getByRole("button", { name: "Cancel the upload of long-take.webm" }).click();
  await aborted;
  await expect(bar).toHaveCount(0);
  await expect(picker).toBeAttached();
  await expect(dialog.getByLabel("Video link")).toBeVisible();

  // The real clip: the bar runs to the end, then the clip previews from the server.
  await throttle(6 * 1024);
  await picker.setInputFiles({ name: "clip.webm", mimeType: "video/webm", buffer: CLIP });
  const clipBar = dialog.getByRole("progressbar", { name: "Uploading clip.webm" });
  await expect(clipBar).toBeVisible();
  await expect(clipBar).toHaveCount(0, { timeout: 20_000 });
  await throttle(-1);
  const preview = dialog.locator("video");
  await expect(preview).toHaveAttribute(
    "src",
    new RegExp(`^/media/community-assets/${community.id}/posts/[\\w-]+\\.webm$`),
  );
  await expect(dialog.getByText("clip.webm", { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("Video link")).toHaveCount(0);
  const src = (await preview.getAttribute("src"))!;
  await page.screenshot({ path: test.info().outputPath("composer-video-ready.png") });
  await expectNoViolations(page, "the composer with an uploaded video");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(dialog).toHaveCount(0);

  // In the feed: a <video> of the /media file, which Chromium decodes.
  const video = postCard(page, "Our first clip").locator("video");
  await expect(video).toHaveAttribute("src", src);
  await expect(video).toHaveAttribute("controls", "");
  await video.scrollIntoViewIfNeeded();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([320, 180]);
  await page.screenshot({ path: test.info().outputPath("feed-video-post.png") });

  const whole = await page.request.get(src);
  expect(whole.status()).toBe(200);
  expect(whole.headers()["content-type"]).toBe("video/webm");
  expect((await whole.body()).equals(CLIP)).toBe(true);
  const part = await page.request.get(src, { headers: { range: "bytes=0-99" } });
  expect(part.status()).toBe(206);
  expect(part.headers()["content-range"]).toBe(`bytes 0-99/${CLIP.length}`);
});

test("an SVG icon's script never runs: not opened directly, not in an img, iframe, object or embed", async ({
  page,
}) => {
  const owner = await createConfirmedUser("svg");
  const api = await apiFor(owner);
  const community = await createCommunity(api, "Icons");
  await api.dispose();
  await signInPage(page, owner);

  // The icon goes up through the settings dialog like any other.
  await page.goto(`/community/${community.slug}/setup`);
  await page.getByRole("button", { name: "Upload images" }).click();
  const settings = page.getByRole("dialog", { name: "Community settings" });
  await settings
    .getByLabel("Choose an icon (SVG)")
    .setInputFiles({ name: "icon.svg", mimeType: "image/svg+xml", buffer: HOSTILE_SVG });
  await expect(settings.getByText("Icon saved.")).toBeVisible();
  const iconUrl = await settings
    .getByRole("tabpanel", { name: "General" })
    .locator('img[src$=".svg"]')
    .getAttribute("src");
  expect(iconUrl).toMatch(new RegExp(`^/media/community-assets/${community.id}/icon-[\\da-f-]{36}\\.svg$`));

  // Anything a script could do is watched for: dialogs, the marker requests, the title, a flag.
  const dialogs: string[] = [];
  const markers: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("request", (r) => {
    if (r.url().includes("/api/pwned")) markers.push(r.url());
  });

  // (a) Opened directly.
  const direct = await page.goto(iconUrl!);
  expect(direct!.status()).toBe(200);
  const headers = direct!.headers();
  expect(headers["content-type"]).toBe("image/svg+xml");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["content-security-policy"]).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
  expect(headers["content-security-policy"]).toContain("default-src 'none'");
  const body = await direct!.text();
  expect(body).toContain("<svg");
  expect(body).not.toMatch(/<script|onload|onerror|foreignObject/i);
  await page.waitForTimeout(500);
  expect(await page.title()).not.toBe("pwned");

  // (b) Inside a page of the same origin, in every way a page can show it.
  await page.route(`${BASE_URL}/__svg-embeds`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Embeds</title>
        <img id="img" src="${iconUrl}" alt="icon" width="64" height="64">
        <iframe id="frame" src="${iconUrl}" width="80" height="80"></iframe>
        <object id="object" data="${iconUrl}" type="image/svg+xml" width="80" height="80"></object>
        <embed id="embed" src="${iconUrl}" type="image/svg+xml" width="80" height="80">`,
    }),
  );
  await page.goto("/__svg-embeds");
  await expectLoaded(page.locator("#img"));
  const embedded = () => page.frames().filter((f) => f.url() === `${BASE_URL}${iconUrl}`);
  await expect.poll(() => embedded().length).toBeGreaterThanOrEqual(1);
  await page.waitForTimeout(1000);
  expect(await page.title()).toBe("Embeds");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  for (const frame of embedded()) {
    // A sandboxed document: an opaque origin, so nothing of the page is reachable from it.
    expect(await frame.evaluate(() => window.origin)).toBe("null");
  }
  expect(dialogs).toEqual([]);
  expect(markers).toEqual([]);
});

test("a private community's media: members see it, anyone else gets a 404", async ({ page, browser }) => {
  const owner = await createConfirmedUser("private");
  const stranger = await createConfirmedUser("stranger");
  const api = await apiFor(owner);
  const community = await createCommunity(api, "Private");
  const set = await api.patch(`/api/communities/${community.id}`, { data: { visibility: "private" } });
  expect(set.status(), await set.text()).toBe(200);
  await api.dispose();

  await signInPage(page, owner);
  await page.goto(`/community/${community.slug}`);
  const card = await postImage(page, "Members only, please", await png("#be123c"));
  const img = card.getByRole("button", { name: "View image 1 of 1" }).locator("img");
  await expectLoaded(img);
  const medium = (await img.getAttribute("src"))!;
  const urls = [medium, medium.replace(/-medium\.webp$/, ".webp"), medium.replace(/-medium\.webp$/, "-thumbnail.webp")];
  for (const url of urls) {
    const res = await page.request.get(url);
    expect(res.status(), url).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-cache");
  }

  // Someone signed out, in a browser of their own.
  const anonymous = await browser.newContext({ baseURL: BASE_URL });
  const anonPage = await anonymous.newPage();
  for (const url of urls) {
    const res = await anonPage.goto(`${BASE_URL}${url}`);
    expect(res!.status(), url).toBe(404);
  }
  await anonymous.close();

  // Someone signed in who is not a member.
  const outsider = await browser.newContext({ baseURL: BASE_URL });
  const outsiderPage = await outsider.newPage();
  await signInPage(outsiderPage, stranger);
  for (const url of urls) {
    const res = await outsiderPage.request.get(`${BASE_URL}${url}`);
    expect(res.status(), url).toBe(404);
  }
  await outsider.close();
});
