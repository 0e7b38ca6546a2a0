import { ArrowRight, Check, Info, Sparkles } from "lucide-react";
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { DEFAULT_PLAN, PLAN_IDS, PLANS, type PlanId, TRIAL_DAYS } from "#shared/plans";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import { useBillingPlan } from "#web/features/billing";
import { FEATURES } from "../data";

const isPlan = (value: string | null): value is PlanId => (PLAN_IDS as readonly string[]).includes(value ?? "");

/** The plan in the address (`?plan=`), annual when there is none (SPEC §2). */
export function usePlanParam(): PlanId {
  const [searchParams] = useSearchParams();
  const plan = searchParams.get("plan");
  return isPlan(plan) ? plan : DEFAULT_PLAN;
}

/** The plan pages are for signed-in creators: anyone else goes home (SPEC §2). */
export function useSignedInOrHome() {
  const me = useMe();
  const navigate = useNavigate();
  const signedOut = me.isSuccess && !me.data.user;
  useEffect(() => {
    if (signedOut) navigate("/", { replace: true });
  }, [signedOut, navigate]);
  return me.data?.user ?? null;
}

export const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

/** /signup/pricing: monthly or annual, then on to the payment modal. */
export function PricingPage() {
  const user = useSignedInOrHome();
  const plan = usePlanParam();
  const [, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const current = useBillingPlan(Boolean(user));
  if (!user) return <main id="main" className="min-h-[70vh]" aria-busy="true" />;

  const choose = (next: PlanId) => setSearchParams({ plan: next }, { replace: true, preventScrollReset: true });

  return (
    <main id="main" className="relative overflow-hidden">
      <title>Choose your plan · Hearth</title>
      <div
        className="pointer-events-none absolute inset-x-0 top-0 h-96 bg-[radial-gradient(44rem_20rem_at_50%_-20%,var(--color-brand-100),transparent)]"
        aria-hidden="true"
      />
      <div className="relative mx-auto max-w-4xl px-4 pt-10 pb-16 sm:px-6 sm:pt-16">
        <div className="text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">Step 1 of 2 · Choose your plan</p>
          <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-5xl">
            Start free for {TRIAL_DAYS} days
          </h1>
          <p className="mx-auto mt-4 max-w-xl text-pretty text-stone-700 sm:text-lg">
            Every feature on both plans. Pay yearly and save, or stay flexible month to month.
          </p>
        </div>

        {current.data && (
          <div
            role="status"
            className="mx-auto mt-8 flex max-w-2xl items-start gap-3 rounded-2xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
          >
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              You're on the {PLANS[current.data.plan].label.toLowerCase()} plan; your free trial ends on{" "}
              {dateFormat.format(new Date(current.data.trial_ends_at))}.{" "}
              {current.data.community && (
                <Link
                  to={`/community/${current.data.community.slug}`}
                  className="font-semibold underline underline-offset-2"
                >
                  Go to your community
                </Link>
              )}
            </p>
          </div>
        )}

        <fieldset className="mt-10">
          <legend className="sr-only">Billing</legend>
          <div className="grid gap-4 sm:grid-cols-2 sm:gap-6">
            {(["monthly", "annual"] as const).map((id) => (
              <PlanCard key={id} id={id} checked={plan === id} onChoose={() => choose(id)} />
            ))}
          </div>
        </fieldset>

        <div className="mt-8 flex flex-col items-center gap-3">
          <Button
            size="lg"
            className="h-14 w-full px-8 text-base shadow-lg shadow-brand-700/20 sm:w-auto"
            onClick={() => navigate(`/signup/payment?plan=${plan}`)}
          >
            Start Free Trial
            <ArrowRight className="size-5" aria-hidden="true" />
          </Button>
          <p className="text-sm text-stone-600">Nothing is charged today. Cancel anytime during the trial.</p>
        </div>

        <section
          aria-labelledby="included"
          className="mt-14 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
        >
          <h2 id="included" className="flex items-center gap-2 text-lg font-bold text-stone-900">
            <Sparkles className="size-5 text-brand-700" aria-hidden="true" />
            Included in both plans
          </h2>
          <ul className="mt-5 grid gap-x-8 gap-y-3 sm:grid-cols-2">
            {FEATURES.map((f) => (
              <li key={f.title} className="flex items-start gap-2.5 text-stone-700">
                <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" strokeWidth={3} aria-hidden="true" />
                {f.title}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}

function PlanCard({ id, checked, onChoose }: { id: PlanId; checked: boolean; onChoose: () => void }) {
  const plan = PLANS[id];
  const popular = id === "annual";
  return (
    <label
      className={cn(
        "relative flex cursor-pointer flex-col rounded-3xl bg-white p-6 shadow-sm ring-1 transition sm:p-7",
        "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700",
        checked ? "shadow-lg ring-2 shadow-brand-700/10 ring-brand-700" : "ring-stone-200 hover:ring-stone-300",
      )}
    >
      <input
        type="radio"
        name="plan"
        value={id}
        checked={checked}
        onChange={onChoose}
        className="sr-only"
        aria-labelledby={`plan-${id}`}
        aria-describedby={[popular && `plan-${id}-badge`, `plan-${id}-price`, plan.saving && `plan-${id}-saving`]
          .filter(Boolean)
          .join(" ")}
      />
      <div className="flex items-center justify-between gap-3">
        <span id={`plan-${id}`} className="text-lg font-bold text-stone-900">
          {plan.label}
        </span>
        {popular ? (
          <span
            id={`plan-${id}-badge`}
            className="rounded-full bg-brand-700 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase"
          >
            Most Popular
          </span>
        ) : null}
      </div>
      <p id={`plan-${id}-price`} className="mt-4">
        <span className="text-5xl font-extrabold tracking-tight text-stone-900 tabular-nums">
          ${plan.pricePerMonth}
        </span>
        <span className="text-stone-600">/month</span>
        <span className="sr-only">, {plan.billed.toLowerCase()}</span>
      </p>
      <p className="mt-1 text-sm text-stone-600" aria-hidden="true">
        {plan.billed}
      </p>
      <div className="mt-5 flex min-h-7 items-center justify-between gap-3">
        {plan.saving ? (
          <span
            id={`plan-${id}-saving`}
            className="rounded-full bg-emerald-50 px-2.5 py-1 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200"
          >
            {plan.saving}
          </span>
        ) : (
          <span className="text-sm text-stone-600">Flexible, month to month</span>
        )}
        <span
          className={cn(
            "flex size-6 items-center justify-center rounded-full ring-2 transition-colors",
            checked ? "bg-brand-700 text-white ring-brand-700" : "bg-white ring-stone-300",
          )}
          aria-hidden="true"
        >
          {checked && <Check className="size-3.5" strokeWidth={3.5} />}
        </span>
      </div>
    </label>
  );
}
