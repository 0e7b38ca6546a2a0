import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

let made = 0;
/** A private community; each one its own name (a name like another community's is refused). */
async function privateCommunity(name = `Inner Circle ${++made}`) {
  const owner = await signedInUser(t);
  const c = (await http.post("/api/communities", { name }, { cookie: owner.cookie })).body;
  await http.patch(
    `/api/communities/${c.id}`,
    { visibility: "private", description: "Hush" },
    { cookie: owner.cookie },
  );
  const code = (await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body.invite_code as string;
  return { owner, c, code };
}

describe("invites", () => {
  it("show the invite view to anyone holding the code, private communities included", async () => {
    const { c, code } = await privateCommunity("Inner Circle");
    const res = await http.get(`/api/invites/${code}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      community: expect.objectContaining({
        id: c.id,
        slug: c.slug,
        name: "Inner Circle",
        description: "Hush",
        member_count: 1,
        post_count: 0,
        type: "free",
        price: 0,
        visibility: "private",
      }),
      viewer_role: null,
    });
  });

  it("answer unknown and malformed codes with the spec's message and nothing else", async () => {
    for (const code of ["AAAAAAAAAAAAAAAAAAAAAA", "short", "bad%20code%27--"]) {
      const res = await http.get(`/api/invites/${code}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(MSG.invalidInviteCode);
    }
    const u = await signedInUser(t);
    const res = await http.post(`/api/invites/AAAAAAAAAAAAAAAAAAAAAA/accept`, {}, { cookie: u.cookie });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(MSG.invalidOrExpiredInvite);
  });

  it("accepting joins a private community once; a second time says already a member", async () => {
    const { c, code } = await privateCommunity();
    const u = await signedInUser(t);
    expect((await http.post(`/api/invites/${code}/accept`, {})).status).toBe(401);
    const res = await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, community: { id: c.id, slug: c.slug } });
    const view = await http.get(`/api/communities/${c.id}`, { cookie: u.cookie });
    expect(view.body.viewer.role).toBe("member");
    const again = await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(MSG.alreadyMember);
    expect((await http.get(`/api/invites/${code}`, { cookie: u.cookie })).body.viewer_role).toBe("member");
  });

  it("stop working when disabled or regenerated", async () => {
    const { owner, c, code } = await privateCommunity();
    const u = await signedInUser(t);
    await http.patch(`/api/communities/${c.id}`, { invite_enabled: false }, { cookie: owner.cookie });
    for (const res of [
      await http.get(`/api/invites/${code}`),
      await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(MSG.invitesDisabled);
    }
    await http.patch(`/api/communities/${c.id}`, { invite_enabled: true }, { cookie: owner.cookie });
    const regen = await http.post(`/api/communities/${c.id}/invite/regenerate`, {}, { cookie: owner.cookie });
    expect(regen.status).toBe(200);
    expect(regen.body.invite_code).not.toBe(code);
    expect((await http.get(`/api/invites/${code}`)).status).toBe(404);
    expect((await http.post(`/api/invites/${regen.body.invite_code}/accept`, {}, { cookie: u.cookie })).status).toBe(
      200,
    );
  });

  it("keep a banned user out", async () => {
    const { owner, c, code } = await privateCommunity();
    const u = await signedInUser(t);
    await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie });
    await http.post(`/api/communities/${c.id}/bans`, { user_id: u.id }, { cookie: owner.cookie });
    expect((await http.post(`/api/invites/${code}/accept`, {}, { cookie: u.cookie })).status).toBe(403);
  });
});

describe("invite lookups are rate-limited", () => {
  it("per address", async () => {
    const limited = await createTestApp({ rateLimits: true });
    try {
      const h = api(limited.app);
      const statuses: number[] = [];
      for (let i = 0; i < 305; i++) statuses.push((await h.get(`/api/invites/AAAAAAAAAAAAAAAAAAAA${i}`)).status);
      expect(statuses.slice(0, 300).every((s) => s === 404)).toBe(true);
      expect(statuses.slice(300)).toEqual(Array(5).fill(429));
    } finally {
      await limited.close();
    }
  });
});
