import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { postDto, postPage } from "./post-dto";

// The feed and the anonymous post page are sent as pre-serialized strings, not through the route's
// schema: these checks keep them to postDto, on the real database.

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;

async function community(owner: User) {
  const c = (await http.post("/api/communities", { name: `Dto ${Date.now().toString(36)}` }, { cookie: owner.cookie }))
    .body as { id: string };
  await http.patch(`/api/communities/${c.id}`, { moderation_enabled: true }, { cookie: owner.cookie });
  return c;
}
const post = (c: { id: string }, u: User, body: Record<string, unknown>) =>
  http.post(`/api/communities/${c.id}/posts`, body, { cookie: u.cookie });

describe("answers sent pre-serialized", () => {
  it("match postDto: the feed (anonymous and signed in, with a pending post) and the anonymous post page", async () => {
    const owner = await signedInUser(t);
    const fan = await signedInUser(t);
    const c = await community(owner);
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: fan.cookie });
    const poll = (await post(c, owner, { type: "poll", content: "Which?", poll: { options: ["a", "b"] } })).body;
    await post(c, owner, { type: "video", content: "Watch", video_url: "https://youtu.be/dQw4w9WgXcQ" });
    await post(c, owner, { content: "Members", visibility: "members" });
    expect((await http.post(`/api/posts/${poll.id}/vote`, { option_index: 1 }, { cookie: fan.cookie })).status).toBe(
      200,
    );
    expect((await http.post(`/api/posts/${poll.id}/pin`, { pinned: true }, { cookie: owner.cookie })).status).toBe(200);
    const pending = (await post(c, fan, { content: "Waiting" })).body;
    expect(pending.is_approved).toBe(false);

    const anonymous = await http.get(`/api/communities/${c.id}/posts`);
    expect(anonymous.status).toBe(200);
    const anonymousPage = postPage.strict().parse(anonymous.body);
    expect(anonymousPage.items.map((p) => p.type)).toEqual(["poll", "video"]);
    for (const item of anonymous.body.items) postDto.strict().parse(item);

    const signedIn = await http.get(`/api/communities/${c.id}/posts`, { cookie: fan.cookie });
    const signedInPage = postPage.parse(signedIn.body);
    expect(signedInPage.items.map((p) => p.id)).toContain(pending.id);
    for (const item of signedIn.body.items) postDto.strict().parse(item);
    expect(signedInPage.items.find((p) => p.id === poll.id)).toMatchObject({ user_vote_index: 1, is_pinned: true });

    const one = await http.get(`/api/posts/${poll.id}`);
    expect(one.status).toBe(200);
    const parsed = postDto.strict().parse(one.body.post);
    expect(parsed).toMatchObject({ id: poll.id, is_pinned: true, liked: false, user_vote_index: null });
    expect(parsed.poll?.options.map((o) => o.votes)).toEqual([null, null]);
  });
});
