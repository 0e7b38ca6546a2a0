import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { csvCell } from "./revenue.service";

// The owner's revenue figures and payments export (issue 18), through the HTTP app. Every state is
// written straight into entitlements and payments, so each figure is checked against known rows.

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const ahead = (days: number) => new Date(Date.now() + days * DAY);
const monthOf = (d: Date) => d.toISOString().slice(0, 7);
let seq = 0;

async function community(owner: User, currency = "eur") {
  const res = await http.post("/api/communities", { name: `Revenue lab ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  const c = res.body as { id: string; slug: string };
  const tier = (name: string, monthly: number, annual: number | null) => ({
    name,
    description: "",
    free: false,
    monthly_amount: monthly,
    annual_amount: annual,
    trial_days: 0,
  });
  const saved = await http.put(
    `/api/communities/${c.id}/pricing`,
    { currency, grace_days: 7, tiers: [tier("Standard", 1500, 15000), tier("VIP", 5000, null)] },
    { cookie: owner.cookie },
  );
  expect(saved.status).toBe(200);
  const tiers = saved.body.tiers as { id: string; name: string }[];
  return { ...c, standard: tiers.find((x) => x.name === "Standard")!.id, vip: tiers.find((x) => x.name === "VIP")!.id };
}

type Ent = {
  user: string;
  kind?: "community" | "course";
  tier?: string | null;
  status: string;
  amount: number;
  currency?: string;
  interval: "month" | "year" | "once";
  periodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  trialEndsAt?: Date | null;
  graceEndsAt?: Date | null;
  endedAt?: Date | null;
  createdAt?: Date;
};
async function entitlement(c: { id: string }, e: Ent): Promise<string> {
  const res = await t.database.pool.query(
    `INSERT INTO entitlements (user_id, kind, community_id, tier_id, status, provider, amount, currency, interval,
        current_period_end, cancel_at_period_end, trial_ends_at, grace_ends_at, ended_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'simulated', $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id`,
    [
      e.user,
      e.kind ?? "community",
      c.id,
      e.tier ?? null,
      e.status,
      e.amount,
      e.currency ?? "eur",
      e.interval,
      e.periodEnd === undefined ? ahead(20) : e.periodEnd,
      e.cancelAtPeriodEnd ?? false,
      e.trialEndsAt ?? null,
      e.graceEndsAt ?? null,
      e.endedAt ?? null,
      e.createdAt ?? new Date(),
    ],
  );
  return res.rows[0].id;
}

type Pay = {
  entitlement?: string | null;
  user?: string | null;
  kind: "charge" | "refund";
  status?: "succeeded" | "failed";
  amount: number;
  currency?: string;
  fee?: number;
  at?: Date;
  description?: string;
  ref?: string;
};
async function payment(c: { id: string }, p: Pay) {
  await t.database.pool.query(
    `INSERT INTO payments (entitlement_id, user_id, community_id, kind, status, amount, currency, fee, provider,
        provider_ref, description, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'simulated', $9, $10, $11)`,
    [
      p.entitlement ?? null,
      p.user ?? null,
      c.id,
      p.kind,
      p.status ?? "succeeded",
      p.amount,
      p.currency ?? "eur",
      p.fee ?? 0,
      p.ref ?? `ref_${++seq}`,
      p.description ?? "Membership",
      p.at ?? new Date(),
    ],
  );
}

async function addRole(c: { id: string }, u: User, role: string) {
  await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
    c.id,
    u.id,
    role,
  ]);
}

/** A small CSV reader: quoted cells with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe("revenue: the owner's figures", () => {
  it("MRR, subscribers by status, trial conversion, refunds, by tier and by month", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const people = await Promise.all(Array.from({ length: 9 }, () => signedInUser(t)));
    const [a, b, trial, late, leaving, gone, old, buyer, elsewhere] = people.map((p) => p.id);
    const payments: Pay[] = [];
    const pay = async (p: Pay) => {
      payments.push(p);
      await payment(c, p);
    };
    const ents: Ent[] = [];
    const ent = async (e: Ent) => {
      ents.push(e);
      return entitlement(c, e);
    };

    // Active monthly and active annual (1250 a month), both paid, one of them for two months.
    const eA = await ent({ user: a, tier: c.standard, status: "active", amount: 1500, interval: "month" });
    await pay({ entitlement: eA, user: a, kind: "charge", amount: 1500 });
    await pay({ entitlement: eA, user: a, kind: "charge", amount: 1500, at: ago(45) });
    const eB = await ent({ user: b, tier: c.standard, status: "active", amount: 15000, interval: "year" });
    await pay({ entitlement: eB, user: b, kind: "charge", amount: 15000, fee: 1500 });
    // Trialing: counted, but no revenue yet.
    await ent({
      user: trial,
      tier: c.vip,
      status: "trialing",
      amount: 5000,
      interval: "month",
      trialEndsAt: ahead(5),
    });
    // Past due within its grace period: still counts; its failed charge is not revenue.
    const eLate = await ent({
      user: late,
      tier: c.vip,
      status: "past_due",
      amount: 5000,
      interval: "month",
      graceEndsAt: ahead(3),
    });
    await pay({ entitlement: eLate, user: late, kind: "charge", status: "failed", amount: 5000 });
    // Cancelled at the period's end: counts until then. Its trial ended and it paid: converted.
    const eLeaving = await ent({
      user: leaving,
      tier: c.standard,
      status: "canceled",
      amount: 1500,
      interval: "month",
      cancelAtPeriodEnd: true,
      trialEndsAt: ago(20),
      createdAt: ago(34),
    });
    await pay({
      entitlement: eLeaving,
      user: leaving,
      kind: "charge",
      amount: 1500,
      at: new Date(ago(20).getTime() + 60_000),
    });
    // Expired 5 days ago after a trial that never paid: ended, not converted.
    await ent({
      user: gone,
      tier: c.standard,
      status: "expired",
      amount: 1500,
      interval: "month",
      periodEnd: ago(5),
      trialEndsAt: ago(5),
      endedAt: ago(5),
      createdAt: ago(19),
    });
    // Expired long ago: not in 'ended' (30 days), but a cancellation of its month.
    await ent({
      user: old,
      tier: c.vip,
      status: "expired",
      amount: 5000,
      interval: "month",
      periodEnd: ago(70),
      endedAt: ago(70),
      createdAt: ago(100),
    });
    // A course bought and refunded: gross and refunds, never MRR or subscribers.
    const eCourse = await ent({ user: buyer, kind: "course", status: "refunded", amount: 4900, interval: "once" });
    await pay({ entitlement: eCourse, user: buyer, kind: "charge", amount: 4900, description: "Course purchase" });
    await pay({ entitlement: eCourse, user: buyer, kind: "refund", amount: 4900, description: "Refund" });
    // Sold in another currency before the community changed it: left out, with a note.
    const eUsd = await entitlement(c, {
      user: elsewhere,
      tier: c.standard,
      status: "active",
      amount: 999,
      currency: "usd",
      interval: "month",
    });
    await payment(c, { entitlement: eUsd, user: elsewhere, kind: "charge", amount: 999, currency: "usd" });

    const res = await http.get(`/api/communities/${c.slug}/revenue`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.currency).toBe("eur");
    expect(r.mrr).toBe(1500 + 1250 + 5000 + 1500);
    expect({
      active: r.active,
      trialing: r.trialing,
      past_due: r.past_due,
      canceled: r.canceled,
      ended: r.ended,
    }).toEqual({ active: 2, trialing: 1, past_due: 1, canceled: 1, ended: 1 });
    expect(r.trial_conversion).toBe(0.5);
    expect(r.refunds).toEqual({ count: 1, amount: 4900 });
    expect(r.by_tier).toEqual([
      { tier_id: c.standard, name: "Standard", active: 2, trialing: 0, past_due: 0, mrr: 1500 + 1250 + 1500 },
      { tier_id: c.vip, name: "VIP", active: 0, trialing: 1, past_due: 1, mrr: 5000 },
    ]);
    expect(r.note).toMatch(/EUR/);

    // By month: the last 12 months (UTC), each figure summed here from the rows written above.
    expect(r.by_month).toHaveLength(12);
    const thisMonth = monthOf(new Date());
    expect(r.by_month[11].month).toBe(thisMonth);
    const expected = new Map<
      string,
      { gross: number; refunds: number; new_subscribers: number; cancellations: number }
    >();
    const at = (month: string) => {
      if (!expected.has(month)) expected.set(month, { gross: 0, refunds: 0, new_subscribers: 0, cancellations: 0 });
      return expected.get(month)!;
    };
    for (const p of payments) {
      if ((p.status ?? "succeeded") !== "succeeded") continue;
      at(monthOf(p.at ?? new Date()))[p.kind === "charge" ? "gross" : "refunds"] += p.amount;
    }
    for (const e of ents) {
      if (e.kind === "course") continue;
      at(monthOf(e.createdAt ?? new Date())).new_subscribers++;
      if (e.status === "expired") at(monthOf(e.endedAt!)).cancellations++;
    }
    for (const m of r.by_month) {
      const want = expected.get(m.month) ?? { gross: 0, refunds: 0, new_subscribers: 0, cancellations: 0 };
      expect(m, m.month).toEqual({ month: m.month, ...want, net: want.gross - want.refunds });
    }
    const months = r.by_month.map((m: { month: string }) => m.month);
    expect(new Set(months).size).toBe(12);
    expect([...months].sort()).toEqual(months);
    expect(r.by_month.reduce((s: number, m: { gross: number }) => s + m.gross, 0)).toBe(
      1500 + 1500 + 15000 + 1500 + 4900,
    );
  });

  it("an empty community: zeros, no conversion yet, no note", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const r = (await http.get(`/api/communities/${c.id}/revenue`, { cookie: owner.cookie })).body;
    expect(r).toMatchObject({ mrr: 0, active: 0, trialing: 0, trial_conversion: null, note: null });
    expect(r.refunds).toEqual({ count: 0, amount: 0 });
    expect(r.by_tier.map((x: { name: string }) => x.name)).toEqual(["Standard", "VIP"]);
    expect(r.by_month.every((m: { gross: number }) => m.gross === 0)).toBe(true);
  });
});

describe("revenue: who may see it", () => {
  it("the owner only: admin and member 403, an outsider of a private community 404, anonymous 401", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const admin = await signedInUser(t);
    const member = await signedInUser(t);
    const outsider = await signedInUser(t);
    await addRole(c, admin, "admin");
    await addRole(c, member, "member");
    for (const path of ["revenue", "payments.csv"]) {
      const url = `/api/communities/${c.id}/${path}`;
      expect((await http.get(url, { cookie: owner.cookie })).status, path).toBe(200);
      expect((await http.get(url, { cookie: admin.cookie })).status, path).toBe(403);
      expect((await http.get(url, { cookie: member.cookie })).status, path).toBe(403);
      expect((await http.get(url, { cookie: outsider.cookie })).status, path).toBe(403);
      expect((await http.get(url)).status, path).toBe(401);
    }
    await t.database.pool.query(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [c.id]);
    for (const path of ["revenue", "payments.csv"]) {
      const url = `/api/communities/${c.id}/${path}`;
      expect((await http.get(url, { cookie: outsider.cookie })).status, path).toBe(404);
      expect((await http.get(url, { cookie: admin.cookie })).status, path).toBe(403);
      expect((await http.get(url, { cookie: owner.cookie })).status, path).toBe(200);
    }
    expect((await http.get(`/api/communities/no-such-community/revenue`, { cookie: owner.cookie })).status).toBe(404);
  });
});

describe("payments.csv", () => {
  it("every payment with its member's username, escaped, formula cells defused, no emails", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    const member = await signedInUser(t);
    const eM = await entitlement(c, {
      user: member.id,
      tier: c.standard,
      status: "active",
      amount: 1500,
      interval: "month",
    });
    await payment(c, {
      entitlement: eM,
      user: member.id,
      kind: "charge",
      amount: 1500,
      fee: 150,
      at: ago(3),
      ref: "in_1",
    });
    await payment(c, {
      entitlement: eM,
      user: member.id,
      kind: "charge",
      amount: 1999,
      at: ago(2),
      ref: "in_2",
      description: '=HYPERLINK("http://evil.test","Click"), with "quotes"\nand a new line',
    });
    await payment(c, {
      user: member.id,
      kind: "refund",
      amount: 1000,
      currency: "jpy",
      at: ago(1),
      ref: "re_3",
      description: "@SUM(1)",
    });
    await payment(c, { user: null, kind: "charge", amount: 5, at: new Date(), ref: "+cmd", description: "\tx" });

    const res = await http.get(`/api/communities/${c.slug}/payments.csv`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${c.slug}-payments.csv"`);
    const text = res.raw.body;
    expect(text).not.toContain("@example.test");
    expect(text).not.toContain(member.email);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      "date",
      "type",
      "status",
      "amount",
      "currency",
      "fee",
      "description",
      "member",
      "tier",
      "reference",
    ]);
    expect(rows).toHaveLength(5);
    expect(rows[1]).toEqual([
      rows[1][0],
      "charge",
      "succeeded",
      "15.00",
      "EUR",
      "1.50",
      "Membership",
      member.username,
      "Standard",
      "in_1",
    ]);
    expect(new Date(rows[1][0]).getTime()).toBeGreaterThan(ago(4).getTime());
    expect(rows[2][3]).toBe("19.99");
    expect(rows[2][6]).toBe(`'=HYPERLINK("http://evil.test","Click"), with "quotes"\nand a new line`);
    expect(rows[3].slice(1, 8)).toEqual(["refund", "succeeded", "1000", "JPY", "0", "'@SUM(1)", member.username]);
    expect(rows[4][6]).toBe("'\tx");
    expect(rows[4][7]).toBe("");
    expect(rows[4][9]).toBe("'+cmd");
    // The raw text: quotes doubled inside a quoted cell.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""Click""), with ""quotes""\nand a new line"`);
  });

  it("pages through every row (keyset), not the first hundred", async () => {
    const owner = await signedInUser(t);
    const c = await community(owner);
    // 1,234 payments, many at the very same instant: ties are broken by id.
    await t.database.pool.query(
      `INSERT INTO payments (community_id, kind, status, amount, currency, provider, provider_ref, created_at)
       SELECT $1, 'charge', 'succeeded', 100 + g, 'eur', 'simulated', 'bulk_' || g, now() - (g % 7) * interval '1 hour'
         FROM generate_series(1, 1234) g`,
      [c.id],
    );
    const res = await http.get(`/api/communities/${c.id}/payments.csv`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const rows = parseCsv(res.raw.body).slice(1);
    expect(rows).toHaveLength(1234);
    expect(new Set(rows.map((r) => r[9])).size).toBe(1234);
    const dates = rows.map((r) => r[0]);
    expect([...dates].sort()).toEqual(dates);
  });

  it("csvCell: plain, quoted and formula-safe cells", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
    expect(csvCell(12)).toBe("12");
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a\nb")).toBe('"a\nb"');
    for (const lead of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${lead}1`).startsWith(`'${lead}`) || csvCell(`${lead}1`).startsWith(`"'${lead}`)).toBe(true);
    expect(csvCell("\r1")).toBe(`"'\r1"`);
  });
});
