import { sql } from "drizzle-orm";
import { currencyDecimals, fromMinor } from "#shared/payments";
import type { AppContext, Viewer } from "#server/context";
import { requireCommunityPermission } from "#server/lib/community-access";
import { entitlementOpenText } from "#server/lib/entitlement-access";

/*
 * What an owner earns (issue 18, docs/payments.md): figures computed from the entitlements and
 * payments rows only, never from the provider. Amounts are minor units of the community's currency;
 * rows in another currency (a currency changed after sales) are left out and the answer says so.
 */

const OPEN = entitlementOpenText("e");
/** A community membership paid by the month or the year, in the community's currency. */
const SUBSCRIPTION = `e.kind = 'community' AND e.interval IN ('month', 'year') AND lower(e.currency) = $currency`;
/** What one subscription brings in a month: the monthly amount, or the annual one over 12 (rounded). */
const MONTHLY = `CASE WHEN e.interval = 'year' THEN round(e.amount / 12.0) ELSE e.amount END`;
/** Counts toward MRR: open, not trialing (a cancellation scheduled for the period's end still counts). */
const EARNING = `${OPEN} AND e.status <> 'trialing' AND (e.trial_ends_at IS NULL OR e.trial_ends_at <= now())`;

/** The community's figures, with the currency spliced in as a parameter (`$currency` above). */
const withCurrency = (text: string, currency: string) =>
  sql.join(
    text.split("$currency").map((part) => sql.raw(part)),
    sql`${currency}`,
  );

export type RevenueTier = {
  tier_id: string;
  name: string;
  active: number;
  trialing: number;
  past_due: number;
  mrr: number;
};
export type RevenueMonth = {
  month: string;
  gross: number;
  refunds: number;
  net: number;
  new_subscribers: number;
  cancellations: number;
};
export type Revenue = {
  currency: string;
  mrr: number;
  active: number;
  trialing: number;
  past_due: number;
  canceled: number;
  ended: number;
  trial_conversion: number | null;
  refunds: { count: number; amount: number };
  by_tier: RevenueTier[];
  by_month: RevenueMonth[];
  note: string | null;
};

export async function getRevenue(ctx: AppContext, viewer: Viewer, idOrSlug: string): Promise<Revenue> {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "view_revenue");
  const currency = community.currency.toLowerCase();
  const q = (text: string) => withCurrency(text, currency);
  const id = community.id;

  const [totals] = (
    await ctx.db.execute<{
      mrr: number;
      active: number;
      trialing: number;
      past_due: number;
      canceled: number;
      ended: number;
      trials_ended: number;
      trials_converted: number;
      refund_count: number;
      refund_amount: number;
      other_currency: number;
    }>(sql`
      SELECT
        coalesce(sum(${q(MONTHLY)}) FILTER (WHERE ${q(EARNING)}), 0)::int AS mrr,
        count(*) FILTER (WHERE e.status = 'active')::int AS active,
        count(*) FILTER (WHERE e.status = 'trialing')::int AS trialing,
        count(*) FILTER (WHERE e.status = 'past_due' AND ${q(OPEN)})::int AS past_due,
        count(*) FILTER (WHERE e.status = 'canceled' AND ${q(OPEN)})::int AS canceled,
        count(*) FILTER (WHERE e.status = 'expired' AND e.ended_at >= now() - interval '30 days')::int AS ended,
        count(*) FILTER (WHERE e.trial_ends_at < now())::int AS trials_ended,
        count(*) FILTER (WHERE e.trial_ends_at < now() AND (e.status = 'active' OR EXISTS (
          SELECT 1 FROM payments p WHERE p.entitlement_id = e.id AND p.kind = 'charge' AND p.status = 'succeeded'
             AND p.amount > 0 AND p.created_at >= e.trial_ends_at - interval '1 hour')))::int AS trials_converted,
        (SELECT count(*)::int FROM payments p WHERE p.community_id = ${id} AND p.kind = 'refund'
            AND p.status = 'succeeded' AND lower(p.currency) = ${currency}
            AND p.created_at >= now() - interval '30 days') AS refund_count,
        (SELECT coalesce(sum(p.amount), 0)::int FROM payments p WHERE p.community_id = ${id} AND p.kind = 'refund'
            AND p.status = 'succeeded' AND lower(p.currency) = ${currency}
            AND p.created_at >= now() - interval '30 days') AS refund_amount,
        (SELECT count(*)::int FROM payments p WHERE p.community_id = ${id} AND lower(p.currency) <> ${currency})
          + (SELECT count(*)::int FROM entitlements o WHERE o.community_id = ${id}
                AND lower(o.currency) <> ${currency} AND o.amount > 0) AS other_currency
        FROM entitlements e
       WHERE e.community_id = ${id} AND ${q(SUBSCRIPTION)}`)
  ).rows;

  const byTier = (
    await ctx.db.execute<RevenueTier>(sql`
      SELECT t.id AS tier_id, t.name,
             count(e.id) FILTER (WHERE e.status = 'active')::int AS active,
             count(e.id) FILTER (WHERE e.status = 'trialing')::int AS trialing,
             count(e.id) FILTER (WHERE e.status = 'past_due' AND ${q(OPEN)})::int AS past_due,
             coalesce(sum(${q(MONTHLY)}) FILTER (WHERE ${q(EARNING)}), 0)::int AS mrr
        FROM community_tiers t
        LEFT JOIN entitlements e ON e.tier_id = t.id AND ${q(SUBSCRIPTION)}
       WHERE t.community_id = ${id}
       GROUP BY t.id
      HAVING t.archived_at IS NULL OR count(e.id) FILTER (WHERE ${q(OPEN)}) > 0
       ORDER BY t.archived_at IS NOT NULL, t.position, t.created_at`)
  ).rows;

  const byMonth = (
    await ctx.db.execute<RevenueMonth>(sql`
      WITH months AS (
        SELECT m AS start, m + interval '1 month' AS stop
          FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '11 months',
                               date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      )
      SELECT to_char(m.start, 'YYYY-MM') AS month,
             coalesce(pay.gross, 0)::int AS gross,
             coalesce(pay.refunds, 0)::int AS refunds,
             (coalesce(pay.gross, 0) - coalesce(pay.refunds, 0))::int AS net,
             (SELECT count(*)::int FROM entitlements e WHERE e.community_id = ${id} AND ${q(SUBSCRIPTION)}
                 AND e.created_at AT TIME ZONE 'UTC' >= m.start AND e.created_at AT TIME ZONE 'UTC' < m.stop)
               AS new_subscribers,
             (SELECT count(*)::int FROM entitlements e WHERE e.community_id = ${id} AND ${q(SUBSCRIPTION)}
                 AND e.status = 'expired'
                 AND e.ended_at AT TIME ZONE 'UTC' >= m.start AND e.ended_at AT TIME ZONE 'UTC' < m.stop)
               AS cancellations
        FROM months m
        LEFT JOIN LATERAL (
          SELECT sum(p.amount) FILTER (WHERE p.kind = 'charge') AS gross,
                 sum(p.amount) FILTER (WHERE p.kind = 'refund') AS refunds
            FROM payments p
           WHERE p.community_id = ${id} AND p.status = 'succeeded' AND lower(p.currency) = ${currency}
             AND p.created_at AT TIME ZONE 'UTC' >= m.start AND p.created_at AT TIME ZONE 'UTC' < m.stop
        ) pay ON true
       ORDER BY m.start`)
  ).rows;

  const t = totals!;
  return {
    currency,
    mrr: t.mrr,
    active: t.active,
    trialing: t.trialing,
    past_due: t.past_due,
    canceled: t.canceled,
    ended: t.ended,
    trial_conversion: t.trials_ended > 0 ? t.trials_converted / t.trials_ended : null,
    refunds: { count: t.refund_count, amount: t.refund_amount },
    by_tier: byTier,
    by_month: byMonth,
    note:
      t.other_currency > 0
        ? `Figures are in ${currency.toUpperCase()} and count only what was sold in it; ${t.other_currency} payment or subscription record${t.other_currency === 1 ? "" : "s"} in other currencies are left out.`
        : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The payments export

export const PAYMENTS_CSV_COLUMNS = [
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
] as const;

/**
 * One CSV cell: quoted when it holds a quote, comma or line break; a cell a spreadsheet would run
 * as a formula (= + - @, a tab or carriage return first) is prefixed with ' so it stays text.
 */
export function csvCell(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** Minor units as a decimal string in the currency's units: 1999 → "19.99", 1000 JPY → "1000". */
const decimal = (minor: number, currency: string) => fromMinor(minor, currency).toFixed(currencyDecimals(currency));

type CsvRow = {
  id: string;
  created_at: Date;
  /** created_at at full precision (microseconds), for the next page's key. */
  at_key: string;
  kind: string;
  status: string;
  amount: number;
  currency: string;
  fee: number;
  description: string;
  member: string | null;
  tier: string | null;
  reference: string;
};

const PAGE = 500;

/** The community's payments, oldest first, read a page at a time (keyset on created_at, id). */
async function* csvLines(ctx: AppContext, communityId: string): AsyncGenerator<string> {
  yield csvLine([...PAYMENTS_CSV_COLUMNS]);
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const page: CsvRow[] = (
      await ctx.db.execute<CsvRow>(sql`
        SELECT p.id, p.created_at, p.created_at::text AS at_key, p.kind, p.status, p.amount, p.currency, p.fee, p.description,
               up.username AS member, coalesce(t.name, co.title) AS tier, p.provider_ref AS reference
          FROM payments p
          LEFT JOIN user_profiles up ON up.user_id = p.user_id
          LEFT JOIN entitlements e ON e.id = p.entitlement_id
          LEFT JOIN community_tiers t ON t.id = e.tier_id
          LEFT JOIN courses co ON co.id = e.course_id
         WHERE p.community_id = ${communityId}
           ${after ? sql`AND (p.created_at, p.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
         ORDER BY p.created_at, p.id
         LIMIT ${PAGE}`)
    ).rows;
    for (const r of page) {
      const at = new Date(r.created_at);
      yield csvLine([
        at.toISOString(),
        r.kind,
        r.status,
        decimal(r.amount, r.currency),
        r.currency.toUpperCase(),
        decimal(r.fee, r.currency),
        r.description,
        r.member,
        r.tier,
        r.reference,
      ]);
    }
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = { at: last.at_key, id: last.id };
  }
}

/** The owner's payments export: the file name and its lines, streamed. */
export async function paymentsCsv(ctx: AppContext, viewer: Viewer, idOrSlug: string) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "view_revenue");
  return { filename: `${community.slug}-payments.csv`, lines: csvLines(ctx, community.id) };
}
