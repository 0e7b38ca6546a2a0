import { CreditCard, ExternalLink, Receipt, RotateCw } from "./glyphs";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { formatMoney, formatPrice, PAYMENT_MESSAGES as PM } from "#shared/payments";
import { SignInPrompt } from "#web/components/sign-in-prompt";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { useSignInOnArrival } from "#web/lib/use-sign-in-on-arrival";
import { type BillingOverview, type Subscription, usePortal, useBilling, useSubscriptionActions } from "../api/billing";
import { formatDate } from "./billing-format";
import { ChangePlanDialog } from "./change-plan-dialog";

const SIGN_IN = { mode: "login", redirect: "/billing", message: "Sign in to see your billing." } as const;
const ACTION_CODES = ["NOT_FOUND", "CONFLICT", "BAD_REQUEST", "VALIDATION", "FORBIDDEN"] as const;

/** /billing — the viewer's subscriptions, course purchases and payments. */
export function BillingPage() {
  const { me, signedIn, signedOut } = useSignInOnArrival(SIGN_IN);
  const billing = useBilling(signedIn);
  const portal = usePortal();

  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <title>Billing · Hearth</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
            <CreditCard className="size-5" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Billing</h1>
            <p className="text-sm text-stone-600">Your memberships, courses and payments.</p>
          </div>
        </div>
        {billing.data?.provider === "stripe" && (
          <Button
            variant="secondary"
            loading={portal.isPending}
            onClick={() =>
              portal.mutate(undefined, {
                onSuccess: ({ url }) => window.location.assign(url),
                onError: (error) => toast.error(errorMessage(error, "Could not open billing.", ["NOT_FOUND"])),
              })
            }
          >
            <ExternalLink className="size-4" aria-hidden="true" />
            Manage billing
          </Button>
        )}
      </div>

      <div className="mt-8">
        {me.isPending || (signedIn && billing.isPending) ? (
          <LoadingRegion label="Loading billing" className="space-y-4">
            <Bone className="h-28 rounded-2xl bg-stone-200/70" />
            <Bone className="h-28 rounded-2xl bg-stone-100" />
          </LoadingRegion>
        ) : signedOut ? (
          <SignInPrompt request={SIGN_IN} title="Sign in to see your billing">
            Your memberships, course purchases and receipts are kept here.
          </SignInPrompt>
        ) : billing.isError || !billing.data ? (
          <FormMessage tone="error">
            <p>Failed to load your billing.</p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => void billing.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          </FormMessage>
        ) : (
          <Overview data={billing.data} />
        )}
      </div>
    </main>
  );
}

function Overview({ data }: { data: BillingOverview }) {
  return (
    <div className="space-y-10">
      <Section title="Subscriptions">
        {data.subscriptions.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-stone-300 bg-white/70 px-6 py-10 text-center">
            <CreditCard className="mx-auto size-8 text-stone-400" />
            <p className="mt-3 font-semibold text-stone-900">No subscriptions</p>
            <p className="mt-1 text-sm text-stone-600">When you join a paid community, its plan shows here.</p>
          </div>
        ) : (
          <ul className="space-y-4" aria-label="Subscriptions">
            {data.subscriptions.map((s) => (
              <SubscriptionCard key={s.id} subscription={s} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Courses">
        {data.purchases.length === 0 ? (
          <p className="text-sm text-stone-600">No course purchases yet.</p>
        ) : (
          <Table head={["Course", "Amount", "Date"]} label="Course purchases">
            {data.purchases.map((p) => (
              <tr key={p.id}>
                <Cell>
                  {p.course && p.community ? (
                    <Link
                      to={`/community/${encodeURIComponent(p.community.slug)}/course/${p.course.id}`}
                      className="font-medium text-stone-900 hover:underline"
                    >
                      {p.course.title}
                    </Link>
                  ) : (
                    (p.course?.title ?? "Course")
                  )}
                  {p.community && <span className="block text-xs text-stone-600">{p.community.name}</span>}
                </Cell>
                <Cell className="tabular-nums">{formatMoney(p.amount, p.currency)}</Cell>
                <Cell>{formatDate(p.purchased_at)}</Cell>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Payments">
        {data.payments.length === 0 ? (
          <p className="text-sm text-stone-600">No payments yet.</p>
        ) : (
          <Table head={["Date", "Description", "Amount", "Status", ""]} label="Payments">
            {data.payments.map((p) => (
              <tr key={p.id}>
                <Cell>{formatDate(p.created_at)}</Cell>
                <Cell>
                  {p.description}
                  {p.community_name && <span className="block text-xs text-stone-600">{p.community_name}</span>}
                </Cell>
                <Cell className="tabular-nums">
                  {formatMoney(p.kind === "refund" ? -p.amount : p.amount, p.currency)}
                </Cell>
                <Cell>
                  <Badge tone={p.status === "succeeded" ? "ok" : "bad"}>
                    {p.kind === "refund" ? "Refunded" : p.status === "succeeded" ? "Paid" : "Failed"}
                  </Badge>
                </Cell>
                <Cell>
                  {p.receipt_url && (
                    <a
                      href={p.receipt_url}
                      target="_blank"
                      rel="noreferrer"
                      className="inline-flex items-center gap-1 text-sm font-medium text-brand-800 hover:underline"
                    >
                      <Receipt className="size-4" aria-hidden="true" />
                      Receipt
                    </a>
                  )}
                </Cell>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </div>
  );
}

/** Active / Trial until … / Past due: access until … / Cancelled: access until … / Ended. */
export function statusText(s: Subscription): { text: string; tone: Tone } {
  switch (s.status) {
    case "trialing":
      return { text: `Trial until ${formatDate(s.trial_ends_at ?? s.current_period_end)}`, tone: "info" };
    case "active":
      return s.cancel_at_period_end
        ? { text: `Cancelled: access until ${formatDate(s.current_period_end)}`, tone: "warn" }
        : { text: "Active", tone: "ok" };
    case "past_due":
      return { text: `Past due: access until ${formatDate(s.grace_ends_at)}`, tone: "bad" };
    case "canceled":
      return s.open
        ? { text: `Cancelled: access until ${formatDate(s.current_period_end)}`, tone: "warn" }
        : { text: "Ended", tone: "muted" };
    default:
      return { text: s.status === "refunded" ? "Refunded" : "Ended", tone: "muted" };
  }
}

function SubscriptionCard({ subscription: s }: { subscription: Subscription }) {
  const actions = useSubscriptionActions(s.id);
  const [dialog, setDialog] = useState<"cancel" | "change" | null>(null);
  const status = statusText(s);
  const cancelling = s.cancel_at_period_end || s.status === "canceled";
  // A scheduled cancellation can be taken back until the period ends.
  const live = s.open && (s.status !== "canceled" || s.cancel_at_period_end);
  const onError = (error: unknown) =>
    toast.error(errorMessage(error, "That did not work. Please try again.", ACTION_CODES));
  const communityPath = s.community ? `/community/${encodeURIComponent(s.community.slug)}` : null;
  const name = s.community?.name ?? "Hearth creator plan";

  return (
    <li className="rounded-2xl bg-white p-5 shadow-xs ring-1 ring-stone-200" aria-label={name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          {s.community?.icon_url ? (
            <img src={s.community.icon_url} alt="" className="size-11 shrink-0 rounded-xl object-cover" />
          ) : (
            <span
              className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-100 font-bold text-brand-800"
              aria-hidden="true"
            >
              {name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <div className="min-w-0">
            {communityPath ? (
              <Link to={communityPath} className="block truncate font-semibold text-stone-900 hover:underline">
                {name}
              </Link>
            ) : (
              <p className="truncate font-semibold text-stone-900">{name}</p>
            )}
            <p className="text-sm text-stone-600">
              {s.tier?.name ? `${s.tier.name} · ` : ""}
              <span className="tabular-nums">{formatPrice(s)}</span>
            </p>
          </div>
        </div>
        <Badge tone={status.tone}>{status.text}</Badge>
      </div>
      {s.status === "past_due" && (
        <FormMessage tone="error" className="mt-4">
          {PM.pastDue}
        </FormMessage>
      )}
      {s.next_charge_at && !cancelling && (
        <p className="mt-3 text-sm text-stone-600">
          Next charge: {formatDate(s.next_charge_at)} · {formatMoney(s.amount, s.currency)}
        </p>
      )}
      {live && s.kind === "community" && (
        <div className="mt-4 flex flex-wrap gap-2">
          {cancelling ? (
            <Button
              size="sm"
              loading={actions.resume.isPending}
              onClick={() =>
                actions.resume.mutate(undefined, {
                  onSuccess: () => toast.success("Your membership continues."),
                  onError,
                })
              }
            >
              Resume
            </Button>
          ) : (
            <>
              <Button size="sm" variant="secondary" onClick={() => setDialog("change")}>
                Change plan
              </Button>
              <Button size="sm" variant="ghost" loading={actions.cancel.isPending} onClick={() => setDialog("cancel")}>
                Cancel
              </Button>
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={dialog === "cancel"}
        onOpenChange={(open) => !open && setDialog(null)}
        title={`Cancel ${name}?`}
        description={`You keep access until ${formatDate(s.current_period_end)}, the end of the period you paid for. Nothing more is charged.`}
        confirmLabel="Cancel membership"
        cancelLabel="Keep membership"
        destructive
        onConfirm={() =>
          actions.cancel.mutate(undefined, { onSuccess: () => toast.success(PM.cancelScheduled), onError })
        }
      />
      {dialog === "change" && s.community && (
        <ChangePlanDialog subscription={s} communityId={s.community.id} onClose={() => setDialog(null)} />
      )}
    </li>
  );
}

type Tone = "ok" | "info" | "warn" | "bad" | "muted";
const TONES: Record<Tone, string> = {
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  warn: "bg-amber-50 text-amber-900 ring-amber-200",
  bad: "bg-red-50 text-red-800 ring-red-200",
  muted: "bg-stone-100 text-stone-700 ring-stone-200",
};

function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={cn("inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1", TONES[tone])}>
      {children}
    </span>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`billing-${title}`}>
      <h2 id={`billing-${title}`} className="mb-4 text-lg font-bold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({ head, label, children }: { head: string[]; label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-2xl bg-white shadow-xs ring-1 ring-stone-200">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="border-b border-stone-200 text-xs text-stone-600 uppercase">
          <tr>
            {head.map((h, i) => (
              <th key={i} scope="col" className="px-4 py-2.5 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">{children}</tbody>
      </table>
    </div>
  );
}

function Cell({ className, children }: { className?: string; children?: ReactNode }) {
  return <td className={cn("px-4 py-3 align-top text-stone-800", className)}>{children}</td>;
}
