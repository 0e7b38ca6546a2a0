import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PAYOUT_MESSAGES } from "#shared/payouts";
import { communityQueryKeys, type CommunityView } from "#web/features/communities";
import type { Revenue } from "../api/get-revenue";
import type { Payouts } from "../api/payouts";
import { PayoutsTab } from "./payouts-tab";
import { RevenueSection } from "./revenue-section";

// The owner's Revenue section and Payouts tab as markup, from answers already in the query cache.

const ID = "c0ffee00-0000-4000-8000-000000000001";

function render(element: ReactElement, part: string, data: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(communityQueryKeys.part(ID, part), data);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

const months = Array.from({ length: 12 }, (_, i) => ({
  month: `2026-${String(i + 1).padStart(2, "0")}`,
  gross: i === 11 ? 20000 : 0,
  refunds: i === 11 ? 4900 : 0,
  net: i === 11 ? 15100 : 0,
  new_subscribers: i === 11 ? 3 : 0,
  cancellations: 0,
}));
const revenue: Revenue = {
  currency: "eur",
  mrr: 9250,
  active: 2,
  trialing: 1,
  past_due: 1,
  canceled: 1,
  ended: 1,
  trial_conversion: 0.5,
  refunds: { count: 1, amount: 4900 },
  by_tier: [{ tier_id: "t1", name: "Standard", active: 2, trialing: 0, past_due: 0, mrr: 4250 }],
  by_month: months,
  note: null,
};

describe("Revenue section", () => {
  it("shows MRR, counts, conversion, refunds, tiers, months and the CSV link", () => {
    const html = render(createElement(RevenueSection, { communityId: ID }), "revenue", revenue);
    expect(html).toContain("€92.50");
    expect(html).toContain("50%");
    expect(html).toContain("€49");
    expect(html).toContain("Standard");
    expect(html).toContain("€42.50");
    expect(html).toContain("€151");
    expect(html).toContain(`href="/api/communities/${ID}/payments.csv"`);
    expect(html).toContain(PAYOUT_MESSAGES.csvLabel);
    expect(html).toContain('role="img"');
  });

  it("no trial ended yet: a dash, not 0%", () => {
    const html = render(createElement(RevenueSection, { communityId: ID }), "revenue", {
      ...revenue,
      trial_conversion: null,
      note: "Figures are in EUR",
    });
    expect(html).toContain("—");
    expect(html).toContain("Figures are in EUR");
  });
});

describe("Payouts tab", () => {
  const community = { id: ID } as CommunityView;
  const tab = () => createElement(PayoutsTab, { community });

  it("instance mode: payments go to this Hearth's account, nothing to connect", () => {
    const html = render(tab(), "payouts", {
      mode: "instance",
      provider: "stripe",
      status: "active",
      fee_percent: 0,
      account: null,
    } satisfies Payouts);
    expect(html).toContain(PAYOUT_MESSAGES.instanceMode.replace("'", "&#x27;"));
    expect(html).not.toContain("Connect Stripe");
  });

  it("connect mode: the status, the button for the next step, the fee", () => {
    const none = render(tab(), "payouts", {
      mode: "connect",
      provider: "stripe",
      status: "not_connected",
      fee_percent: 10,
      account: null,
    } satisfies Payouts);
    expect(none).toContain("Not connected");
    expect(none).toContain("Connect Stripe");
    expect(none).not.toContain("Refresh status");
    expect(none).toContain("10%");
    const onboarding = render(tab(), "payouts", {
      mode: "connect",
      provider: "stripe",
      status: "onboarding",
      fee_percent: 10,
      account: { charges_enabled: false, payouts_enabled: false, details_submitted: false },
    } satisfies Payouts);
    expect(onboarding).toContain("Continue onboarding");
    expect(onboarding).toContain("Refresh status");
    const active = render(tab(), "payouts", {
      mode: "connect",
      provider: "stripe",
      status: "active",
      fee_percent: 10,
      account: { charges_enabled: true, payouts_enabled: true, details_submitted: true },
    } satisfies Payouts);
    expect(active).toContain("Active");
    expect(active).not.toContain("Continue onboarding");
  });
});
