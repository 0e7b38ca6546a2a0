import { Download, RefreshCw } from "lucide-react";
import { formatMoney } from "#shared/payments";
import { PAYOUT_MESSAGES } from "#shared/payouts";
import { Button, buttonClasses } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { paymentsCsvUrl, type Revenue, useRevenue } from "../api/get-revenue";
import { FigureTable } from "./figure-table";
import { PanelSection } from "./settings-panel";

const number = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });
const monthFormat = new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" });
/** Months come as YYYY-MM (UTC). */
const formatMonth = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4 shadow-xs">
      <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{label}</dt>
      <dd className="mt-1 text-xl font-bold text-stone-900 tabular-nums">{value}</dd>
      {note && <dd className="mt-0.5 text-xs text-stone-500">{note}</dd>}
    </div>
  );
}

/** Net revenue per month over 12 months, as bars in the style of the joins chart; figures in the label. */
function MonthsChart({ months, currency }: { months: Revenue["by_month"]; currency: string }) {
  const max = Math.max(1, ...months.map((m) => m.net));
  const total = months.reduce((sum, m) => sum + m.net, 0);
  const label =
    `Net revenue per month over the last 12 months: ${formatMoney(total, currency)} in total. ` +
    months.map((m) => `${formatMonth(m.month)}: ${formatMoney(m.net, currency)}`).join(", ");
  return (
    <figure className="rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-stone-900">Net revenue, last 12 months</span>
        <strong className="text-sm font-semibold text-stone-900 tabular-nums">{formatMoney(total, currency)}</strong>
      </figcaption>
      <div role="img" aria-label={label} className="mt-5 flex h-28 items-end gap-1 border-b border-stone-300 sm:gap-2">
        {months.map((m) => (
          <div
            key={m.month}
            title={`${formatMonth(m.month)}: ${formatMoney(m.net, currency)}`}
            className={
              m.net > 0
                ? "min-h-1 flex-1 rounded-t-[3px] bg-gradient-to-t from-brand-700 to-brand-500"
                : "h-[3px] flex-1 rounded-t-[2px] bg-stone-200"
            }
            style={m.net > 0 ? { height: `${(m.net / max) * 100}%` } : undefined}
          />
        ))}
      </div>
      {months.length > 0 && (
        <div className="mt-1.5 flex justify-between text-xs text-stone-500" aria-hidden="true">
          <span>{formatMonth(months[0].month)}</span>
          <span>{formatMonth(months[months.length - 1].month)}</span>
        </div>
      )}
    </figure>
  );
}

function RevenueFigures({ revenue, communityId }: { revenue: Revenue; communityId: string }) {
  const money = (minor: number) => formatMoney(minor, revenue.currency);
  return (
    <div className="space-y-5">
      {revenue.note && <FormMessage tone="info">{revenue.note}</FormMessage>}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="MRR" value={money(revenue.mrr)} note="Monthly recurring revenue" />
        <Figure label="Active" value={number.format(revenue.active)} />
        <Figure label="Trialing" value={number.format(revenue.trialing)} />
        <Figure label="Past due" value={number.format(revenue.past_due)} note="Payment failed, in grace period" />
        <Figure label="Cancelling" value={number.format(revenue.canceled)} note="Access until the period ends" />
        <Figure label="Ended" value={number.format(revenue.ended)} note="Last 30 days" />
        <Figure
          label="Trial conversion"
          value={revenue.trial_conversion === null ? "—" : percent.format(revenue.trial_conversion)}
          note="Trials that went on to pay"
        />
        <Figure
          label="Refunds"
          value={money(revenue.refunds.amount)}
          note={`${number.format(revenue.refunds.count)} in the last 30 days`}
        />
      </dl>

      {revenue.by_tier.length > 0 && (
        <FigureTable
          caption="Subscribers and MRR by tier"
          columns={[
            { label: "Tier" },
            { label: "Active", className: "!text-right" },
            { label: "Trialing", className: "!text-right" },
            { label: "Past due", className: "!text-right" },
            { label: "MRR", className: "!text-right" },
          ]}
        >
          {revenue.by_tier.map((t) => (
            <tr key={t.tier_id}>
              <th scope="row" className="font-medium text-stone-800">
                {t.name}
              </th>
              <td className="text-right tabular-nums">{number.format(t.active)}</td>
              <td className="text-right tabular-nums">{number.format(t.trialing)}</td>
              <td className="text-right tabular-nums">{number.format(t.past_due)}</td>
              <td className="text-right font-semibold text-stone-900 tabular-nums">{money(t.mrr)}</td>
            </tr>
          ))}
        </FigureTable>
      )}

      <MonthsChart months={revenue.by_month} currency={revenue.currency} />
      <FigureTable
        caption="Revenue by month"
        columns={[
          { label: "Month" },
          { label: "Gross", className: "!text-right" },
          { label: "Refunds", className: "!text-right" },
          { label: "Net", className: "!text-right" },
          { label: "New", className: "!text-right" },
          { label: "Ended", className: "!text-right" },
        ]}
      >
        {[...revenue.by_month].reverse().map((m) => (
          <tr key={m.month}>
            <th scope="row" className="font-medium whitespace-nowrap text-stone-800">
              {formatMonth(m.month)}
            </th>
            <td className="text-right tabular-nums">{money(m.gross)}</td>
            <td className="text-right tabular-nums">{money(m.refunds)}</td>
            <td className="text-right font-semibold text-stone-900 tabular-nums">{money(m.net)}</td>
            <td className="text-right tabular-nums">{number.format(m.new_subscribers)}</td>
            <td className="text-right tabular-nums">{number.format(m.cancellations)}</td>
          </tr>
        ))}
      </FigureTable>

      <a href={paymentsCsvUrl(communityId)} download className={buttonClasses({ variant: "secondary", size: "sm" })}>
        <Download className="size-4" aria-hidden="true" />
        {PAYOUT_MESSAGES.csvLabel}
      </a>
    </div>
  );
}

/** The owner's money: MRR, subscribers, conversion, refunds, by tier and by month, and the CSV. */
export function RevenueSection({ communityId }: { communityId: string }) {
  const revenue = useRevenue(communityId);
  return (
    <PanelSection title="Revenue" description="Only you, the owner, see these figures.">
      {revenue.isPending ? (
        <div aria-busy="true" className="h-40 animate-pulse rounded-xl bg-stone-200/70" />
      ) : revenue.isError ? (
        <FormMessage tone="error">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>Could not load the revenue figures. Please try again.</span>
            <Button variant="secondary" size="sm" onClick={() => void revenue.refetch()} loading={revenue.isFetching}>
              {!revenue.isFetching && <RefreshCw className="size-4" aria-hidden="true" />}
              Try again
            </Button>
          </div>
        </FormMessage>
      ) : (
        <RevenueFigures revenue={revenue.data} communityId={communityId} />
      )}
    </PanelSection>
  );
}
