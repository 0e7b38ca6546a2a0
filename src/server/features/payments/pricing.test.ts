import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES, type TierInput } from "#shared/payments";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;
let seq = 0;

async function community(owner: User) {
  const res = await http.post("/api/communities", { name: `Pricing lab ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string; slug: string };
}
const addMember = (c: { id: string }, u: User, role = "member") =>
  t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
    c.id,
    u.id,
    role,
  ]);
const tier = (over: Partial<TierInput> = {}) => ({
  name: "Standard",
  description: "",
  free: false,
  monthly_amount: 900,
  annual_amount: null,
  trial_days: 0,
  ...over,
});
const put = (c: { id: string }, u: User, body: unknown) =>
  http.put(`/api/communities/${c.id}/pricing`, body, { cookie: u.cookie });
const pricing = (tiers: unknown[], over: Record<string, unknown> = {}) => ({
  currency: "usd",
  grace_days: 7,
  tiers,
  ...over,
});
const communityRow = async (c: { id: string }) =>
  (
    await t.database.pool.query(
      `SELECT type, price::float8 AS price, currency, grace_days FROM communities WHERE id = $1`,
      [c.id],
    )
  ).rows[0];

describe("saving the pricing", () => {
  it("refuses bad tiers with a 400 and a message", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const four = [1, 2, 3, 4].map((i) => tier({ name: `T${i}` }));
    expect((await put(c, owner, pricing(four))).status).toBe(400);
    const negative = await put(c, owner, pricing([tier({ monthly_amount: -100 })]));
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toBe("A price cannot be negative");
    const small = await put(c, owner, pricing([tier({ monthly_amount: 49 })]));
    expect(small.status).toBe(400);
    expect(small.body.error.message).toBe("The smallest price is $0.50");
    const yenSmall = await put(c, owner, pricing([tier({ monthly_amount: 99 })], { currency: "jpy" }));
    expect(yenSmall.status).toBe(400);
    expect(yenSmall.body.error.message).toBe("The smallest price is ¥100");
    const dup = await put(c, owner, pricing([tier({ name: "VIP" }), tier({ name: "vip" })]));
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe("Each tier needs its own name");
    expect((await put(c, owner, pricing([tier({ monthly_amount: null })]))).status).toBe(400);
    expect(await communityRow(c)).toMatchObject({ type: "free", price: 0, currency: "usd" });
  });

  it("takes zero-decimal amounts as whole yen", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const res = await put(
      c,
      owner,
      pricing([tier({ monthly_amount: 1500, annual_amount: 15000 })], { currency: "jpy" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.currency).toBe("jpy");
    expect(res.body.tiers[0].prices.month.amount).toBe(1500);
    expect(await communityRow(c)).toMatchObject({ type: "paid", price: 1500, currency: "jpy" });
  });

  it("refuses a tier id of another community, and an unknown one", async () => {
    const owner = await signedInUser(t);
    const mine = await community(owner);
    const theirs = await community(owner);
    const other = await put(theirs, owner, pricing([tier()]));
    const foreignId = other.body.tiers[0].id as string;
    const res = await put(mine, owner, pricing([tier({ id: foreignId })]));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(PAYMENT_MESSAGES.tierNotFound);
    const unknown = await put(mine, owner, pricing([tier({ id: "00000000-0000-4000-8000-000000000000" })]));
    expect(unknown.status).toBe(400);
    // The other community's tier is untouched.
    const again = await http.get(`/api/communities/${theirs.id}/tiers`);
    expect(again.body.tiers).toHaveLength(1);
    expect(again.body.tiers[0]).toMatchObject({ id: foreignId, name: "Standard" });
  });

  it("a changed price is a new row; the subscriber's entitlement keeps the old one", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await community(owner);
    await addMember(c, member);
    const first = await put(c, owner, pricing([tier({ monthly_amount: 900, annual_amount: 9000 })]));
    const t0 = first.body.tiers[0];
    const oldMonth = t0.prices.month.id as string;
    await t.database.pool.query(
      `INSERT INTO entitlements (user_id, kind, community_id, tier_id, price_id, status, provider, amount, currency, interval)
       VALUES ($1, 'community', $2, $3, $4, 'active', 'simulated', 900, 'usd', 'month')`,
      [member.id, c.id, t0.id, oldMonth],
    );
    // Same amounts again: nothing changes.
    const same = await put(c, owner, pricing([tier({ id: t0.id, monthly_amount: 900, annual_amount: 9000 })]));
    expect(same.body.tiers[0].prices.month.id).toBe(oldMonth);
    expect(same.body.tiers[0].subscribers).toBe(1);

    const changed = await put(c, owner, pricing([tier({ id: t0.id, monthly_amount: 1200, annual_amount: null })]));
    expect(changed.status).toBe(200);
    const t1 = changed.body.tiers[0];
    expect(t1.id).toBe(t0.id);
    expect(t1.prices.month.amount).toBe(1200);
    expect(t1.prices.month.id).not.toBe(oldMonth);
    expect(t1.prices.year).toBeNull();
    expect(t1.subscribers).toBe(1);
    const rows = await t.database.pool.query(
      `SELECT id, amount, interval, active FROM prices WHERE tier_id = $1 ORDER BY created_at`,
      [t0.id],
    );
    expect(rows.rows.map((r) => [r.interval, r.amount, r.active])).toEqual([
      ["month", 900, false],
      ["year", 9000, false],
      ["month", 1200, true],
    ]);
    const ent = await t.database.pool.query(`SELECT price_id, amount FROM entitlements WHERE user_id = $1`, [
      member.id,
    ]);
    expect(ent.rows[0]).toEqual({ price_id: oldMonth, amount: 900 });
    // A trial change is a new price too.
    const trial = await put(c, owner, pricing([tier({ id: t0.id, monthly_amount: 1200, trial_days: 14 })]));
    expect(trial.body.tiers[0].prices.month.id).not.toBe(t1.prices.month.id);
    expect(trial.body.tiers[0].trial_days).toBe(14);
  });

  it("removing a tier archives it and takes its prices off sale; order sets positions", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const saved = await put(
      c,
      owner,
      pricing([
        tier({ name: "Free", free: true, monthly_amount: null }),
        tier({ name: "Standard" }),
        tier({ name: "VIP", monthly_amount: 4900 }),
      ]),
    );
    expect(saved.status).toBe(200);
    const [free, standard, vip] = saved.body.tiers;
    expect(saved.body.tiers.map((x: { position: number }) => x.position)).toEqual([0, 1, 2]);
    expect(free.prices).toEqual({ month: null, year: null });
    const next = await put(
      c,
      owner,
      pricing([
        tier({ id: vip.id, name: "VIP", monthly_amount: 4900 }),
        tier({ id: free.id, name: "Free", free: true, monthly_amount: null }),
      ]),
    );
    expect(next.body.tiers.map((x: { name: string; position: number }) => [x.name, x.position])).toEqual([
      ["VIP", 0],
      ["Free", 1],
    ]);
    const row = await t.database.pool.query(
      `SELECT archived_at IS NOT NULL AS archived, (SELECT bool_or(active) FROM prices WHERE tier_id = t.id) AS on_sale
         FROM community_tiers t WHERE id = $1`,
      [standard.id],
    );
    expect(row.rows[0]).toEqual({ archived: true, on_sale: false });
    // An archived tier's id is no longer one of the community's tiers.
    expect((await put(c, owner, pricing([tier({ id: standard.id })]))).status).toBe(400);
  });

  it("the community's type, displayed price and currency follow the tiers", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    await put(
      c,
      owner,
      pricing([tier({ name: "A", monthly_amount: 4900 }), tier({ name: "B", monthly_amount: 1999 })], {
        currency: "eur",
        grace_days: 3,
      }),
    );
    expect(await communityRow(c)).toEqual({ type: "paid", price: 19.99, currency: "eur", grace_days: 3 });
    const page = await http.get(`/api/communities/${c.slug}`);
    expect(page.body).toMatchObject({ type: "paid", price: 19.99 });
    const tiers = (await http.get(`/api/communities/${c.id}/pricing`, { cookie: owner.cookie })).body.tiers;
    await put(
      c,
      owner,
      pricing([tier({ id: tiers[0].id, name: "A", free: true, monthly_amount: null })], { currency: "eur" }),
    );
    expect(await communityRow(c)).toMatchObject({ type: "free", price: 0, currency: "eur" });
    expect((await http.get(`/api/communities/${c.slug}`)).body).toMatchObject({ type: "free", price: 0 });
    const active = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM prices WHERE community_id = $1 AND active`,
      [c.id],
    );
    expect(active.rows[0].n).toBe(0);
  });
});

describe("who sees and changes the pricing", () => {
  it("owner and admin manage; a member gets 403, an outsider of a private community 404, anonymous 401", async () => {
    const owner = await signedInUser(t);
    const admin = await signedInUser(t);
    const member = await signedInUser(t);
    const outsider = await signedInUser(t);
    const c = await community(owner);
    await addMember(c, admin, "admin");
    await addMember(c, member);
    const body = pricing([tier()]);
    expect((await put(c, admin, body)).status).toBe(200);
    expect((await http.get(`/api/communities/${c.id}/pricing`, { cookie: admin.cookie })).status).toBe(200);
    expect((await put(c, member, body)).status).toBe(403);
    expect((await http.get(`/api/communities/${c.id}/pricing`, { cookie: member.cookie })).status).toBe(403);
    expect((await http.put(`/api/communities/${c.id}/pricing`, body)).status).toBe(401);
    expect((await http.get(`/api/communities/${c.id}/pricing`)).status).toBe(401);
    // Public tiers: anyone while public.
    expect((await http.get(`/api/communities/${c.id}/tiers`)).status).toBe(200);
    await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect((await put(c, outsider, body)).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/pricing`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/tiers`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/tiers`)).status).toBe(404);
    expect((await http.get(`/api/communities/${c.id}/tiers`, { cookie: member.cookie })).status).toBe(200);
  });

  it("the public tiers hide archived tiers and inactive prices, and tell no subscriber counts", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const first = await put(c, owner, pricing([tier({ name: "Old" }), tier({ name: "Kept", monthly_amount: 1000 })]));
    const kept = first.body.tiers[1];
    await put(c, owner, pricing([tier({ id: kept.id, name: "Kept", monthly_amount: 1500 })]));
    const res = await http.get(`/api/communities/${c.slug}/tiers`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: "usd",
      tiers: [
        {
          id: kept.id,
          name: "Kept",
          description: "",
          free: false,
          trial_days: 0,
          position: 0,
          prices: { month: { id: expect.any(String), amount: 1500 }, year: null },
        },
      ],
    });
    expect(res.body.tiers[0].prices.month.id).not.toBe(kept.prices.month.id);
  });
});

describe("the settings' one-price form (PATCH type and price)", () => {
  it("prices the single tier like the Pricing tab, and refuses when there are several", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const patch = (body: Record<string, unknown>) =>
      http.patch(`/api/communities/${c.id}`, body, { cookie: owner.cookie });
    expect((await patch({ type: "paid", price: 49 })).body).toMatchObject({ type: "paid", price: 49 });
    const first = (await http.get(`/api/communities/${c.id}/tiers`)).body.tiers;
    expect(first).toMatchObject([{ name: "Members", free: false, prices: { month: { amount: 4900 }, year: null } }]);
    expect((await patch({ price: 59 })).body).toMatchObject({ type: "paid", price: 59 });
    const second = (await http.get(`/api/communities/${c.id}/tiers`)).body.tiers;
    expect(second).toHaveLength(1);
    expect(second[0].id).toBe(first[0].id);
    expect(second[0].prices.month.amount).toBe(5900);
    expect(second[0].prices.month.id).not.toBe(first[0].prices.month.id);
    const tooSmall = await patch({ price: 0.3 });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.error.message).toBe("The smallest price is $0.50");
    expect((await patch({ type: "free" })).body).toMatchObject({ type: "free", price: 0 });
    expect((await http.get(`/api/communities/${c.id}/tiers`)).body.tiers[0]).toMatchObject({
      free: true,
      prices: { month: null, year: null },
    });

    await put(c, owner, pricing([tier({ name: "A" }), tier({ name: "B", monthly_amount: 4900 })]));
    const several = await patch({ type: "paid", price: 10 });
    expect(several.status).toBe(400);
    expect(several.body.error.message).toBe(PAYMENT_MESSAGES.severalTiers);
    expect(await communityRow(c)).toMatchObject({ type: "paid", price: 9 });
  });
});

describe("the tiers of a private community", () => {
  it("are shown to its members and to whoever holds its invite code, and to nobody else", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const patched = await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie });
    expect(patched.status).toBe(200);
    expect((await put(c, owner, pricing([tier()]))).status).toBe(200);
    const stranger = await signedInUser(t);
    const code = patched.body.invite_code as string;
    expect((await http.get(`/api/communities/${c.id}/tiers`, { cookie: stranger.cookie })).status).toBe(404);
    expect(
      (await http.get(`/api/communities/${c.id}/tiers?invite_code=wrong`, { cookie: stranger.cookie })).status,
    ).toBe(404);
    const invited = await http.get(`/api/communities/${c.id}/tiers?invite_code=${encodeURIComponent(code)}`);
    expect(invited.status).toBe(200);
    expect(invited.body.tiers.map((x: { name: string }) => x.name)).toEqual(["Standard"]);
    expect((await http.get(`/api/communities/${c.id}/tiers`, { cookie: owner.cookie })).status).toBe(200);
  });
});
