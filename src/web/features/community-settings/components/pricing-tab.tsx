import { useQueryClient } from "@tanstack/react-query";
import { Gift, Plus, RefreshCw, Users, Wallet } from "lucide-react";
import { type FormEvent, useEffect, useId, useMemo, useState } from "react";
import {
  CURRENCIES,
  DEFAULT_GRACE_DAYS,
  fromMinor,
  GRACE_DAYS_MAX,
  MAX_TIERS,
  type PricingInput,
  pricingInputSchema,
  TIER_DESCRIPTION_MAX,
  TIER_NAME_MAX,
  toMinor,
  TRIAL_DAYS_MAX,
} from "#shared/payments";
import { Button } from "#web/components/ui/button";
import { Field, inputClasses, TextareaField, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { Select } from "#web/components/ui/select";
import { SwitchRow } from "#web/components/ui/switch";
import { cn } from "#web/lib/cn";
import { useFlashMessage } from "#web/lib/use-flash-message";
import { type Pricing, usePricing, useSavePricing } from "#web/features/billing";
import { communityQueryKeys } from "#web/features/communities";
import { ListRowActions } from "./list-row-actions";
import { PanelBody, PanelHeader, PanelSection, SaveBar, type SettingsTabProps } from "./settings-panel";

export const PRICE_CHANGE_NOTE = "A price change applies to new subscribers; existing ones keep their price.";

type TierDraft = {
  key: string;
  id?: string;
  name: string;
  description: string;
  free: boolean;
  monthly: string;
  annual: string;
  trial: string;
  subscribers: number;
};
type Draft = { currency: string; grace: string; tiers: TierDraft[] };
type Errors = Record<string, string>;

const CURRENCY_OPTIONS = CURRENCIES.map((c) => ({ value: c, label: c.toUpperCase() }));
let nextKey = 0;
const newKey = () => `new-${++nextKey}`;

function toDraft(p: Pricing): Draft {
  const units = (price: { amount: number } | null) => (price ? String(fromMinor(price.amount, p.currency)) : "");
  return {
    currency: p.currency,
    grace: String(p.grace_days),
    tiers: p.tiers.map((t) => ({
      key: t.id,
      id: t.id,
      name: t.name,
      description: t.description,
      free: t.free,
      monthly: units(t.prices.month),
      annual: units(t.prices.year),
      trial: String(t.trial_days),
      subscribers: t.subscribers,
    })),
  };
}

/** The form as the API takes it (prices in minor units), or the fields that are not numbers. */
function toInput(d: Draft): { input: unknown; errors: Errors } {
  const errors: Errors = {};
  const number = (text: string, path: string, message: string) => {
    if (text.trim() === "") return null;
    const value = Number(text.replace(",", "."));
    if (Number.isNaN(value)) errors[path] = message;
    return value;
  };
  const amount = (text: string, path: string) => {
    const value = number(text, path, "Please enter a price, for example 9.99");
    return value === null || Number.isNaN(value) ? null : toMinor(value, d.currency);
  };
  const input = {
    currency: d.currency,
    grace_days: number(d.grace, "grace_days", "Please enter a number of days") ?? DEFAULT_GRACE_DAYS,
    tiers: d.tiers.map((t, i) => ({
      ...(t.id ? { id: t.id } : {}),
      name: t.name,
      description: t.description,
      free: t.free,
      monthly_amount: t.free ? null : amount(t.monthly, `tiers.${i}.monthly_amount`),
      annual_amount: t.free ? null : amount(t.annual, `tiers.${i}.annual_amount`),
      trial_days: t.free ? 0 : (number(t.trial, `tiers.${i}.trial_days`, "Please enter a number of days") ?? 0),
    })),
  };
  return { input, errors };
}

function validate(d: Draft): { valid: PricingInput | null; errors: Errors } {
  const { input, errors } = toInput(d);
  const parsed = pricingInputSchema.safeParse(input);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      errors[path] ??= issue.message;
    }
  return { valid: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}

/** Pricing (issue 18): the currency, the grace period and up to three tiers with their prices. */
export function PricingTab({ community, onDirtyChange }: SettingsTabProps) {
  const pricing = usePricing(community.id);
  if (pricing.isPending)
    return (
      <PanelBody>
        <PanelHeader title="Pricing" />
        <LoadingRegion label="Loading pricing" className="space-y-4">
          <Bone className="h-10 w-48 rounded-lg bg-stone-100" />
          <Bone className="h-48 rounded-2xl bg-stone-100" />
        </LoadingRegion>
      </PanelBody>
    );
  if (pricing.isError)
    return (
      <PanelBody>
        <PanelHeader title="Pricing" />
        <FormMessage tone="error">
          <p>Failed to load the pricing.</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void pricing.refetch()}>
            <RefreshCw className="size-4" aria-hidden="true" />
            Try again
          </Button>
        </FormMessage>
      </PanelBody>
    );
  return <PricingForm communityId={community.id} pricing={pricing.data} onDirtyChange={onDirtyChange} />;
}

function PricingForm({
  communityId,
  pricing,
  onDirtyChange,
}: {
  communityId: string;
  pricing: Pricing;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const saved = useMemo(() => toDraft(pricing), [pricing]);
  const [draft, setDraft] = useState<Draft>(saved);
  const [submitted, setSubmitted] = useState(false);
  const save = useSavePricing(communityId);
  const queryClient = useQueryClient();
  const flash = useFlashMessage();
  const id = useId();
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const errors = submitted ? validate(draft).errors : {};

  const setTier = (index: number, changes: Partial<TierDraft>) =>
    setDraft((d) => ({ ...d, tiers: d.tiers.map((t, i) => (i === index ? { ...t, ...changes } : t)) }));
  const move = (from: number, to: number) =>
    setDraft((d) => {
      const tiers = [...d.tiers];
      const [tier] = tiers.splice(from, 1);
      tiers.splice(to, 0, tier!);
      return { ...d, tiers };
    });
  const remove = (index: number) => setDraft((d) => ({ ...d, tiers: d.tiers.filter((_, i) => i !== index) }));
  const add = () =>
    setDraft((d) => ({
      ...d,
      tiers: [
        ...d.tiers,
        {
          key: newKey(),
          name: "",
          description: "",
          free: false,
          monthly: "",
          annual: "",
          trial: "0",
          subscribers: 0,
        },
      ],
    }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { valid } = validate(draft);
    if (!valid) return;
    flash.clear();
    save.reset();
    try {
      const answer = await save.mutateAsync(valid);
      const next = toDraft(answer);
      setDraft(next);
      setSubmitted(false);
      flash.show("Pricing saved.");
      // The community's type, price and currency follow the tiers.
      await queryClient.invalidateQueries({ queryKey: communityQueryKeys.all });
    } catch {
      // shown by the save bar
    }
  };

  const code = draft.currency.toUpperCase();
  return (
    <form onSubmit={onSubmit} noValidate className="flex min-h-full flex-col">
      <PanelBody>
        <PanelHeader
          title="Pricing"
          description="Sell memberships in up to three tiers, each with a monthly and an optional annual price. A free tier lets people join without paying."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-currency`}>Currency</Label>
            <div className="mt-1.5">
              <Select
                id={`${id}-currency`}
                value={draft.currency}
                onValueChange={(currency) => setDraft((d) => ({ ...d, currency }))}
                options={CURRENCY_OPTIONS}
              />
            </div>
          </div>
          <TextField
            label="Grace period (days)"
            inputMode="numeric"
            value={draft.grace}
            onChange={(e) => setDraft((d) => ({ ...d, grace: e.target.value }))}
            error={errors.grace_days}
            hint={`After a failed renewal, members keep access this long (0–${GRACE_DAYS_MAX}).`}
          />
        </div>
        <FormMessage tone="info">{PRICE_CHANGE_NOTE}</FormMessage>
        <PanelSection title="Tiers" description={`Up to ${MAX_TIERS}, in the order members see them.`}>
          {errors.tiers && <p className="text-sm text-red-700">{errors.tiers}</p>}
          {draft.tiers.length === 0 && (
            <p className="rounded-xl border border-dashed border-stone-300 px-4 py-6 text-center text-sm text-stone-600">
              No tiers: everyone joins for free. Add a tier to sell memberships.
            </p>
          )}
          <ol className="space-y-4">
            {draft.tiers.map((t, i) => {
              const what = `tier ${t.name || i + 1}`;
              const err = (field: string) => errors[`tiers.${i}.${field}`];
              return (
                <li
                  key={t.key}
                  aria-label={`Tier ${i + 1}`}
                  className="space-y-4 rounded-2xl bg-white p-4 shadow-xs ring-1 ring-stone-200 sm:p-5"
                >
                  <div className="flex items-center justify-between gap-3">
                    <p className="flex items-center gap-2 text-sm font-semibold text-stone-900">
                      {t.free ? (
                        <Gift className="size-4 text-brand-700" aria-hidden="true" />
                      ) : (
                        <Wallet className="size-4 text-brand-700" aria-hidden="true" />
                      )}
                      Tier {i + 1}
                      <span className="inline-flex items-center gap-1 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
                        <Users className="size-3.5" aria-hidden="true" />
                        {t.subscribers === 1 ? "1 subscriber" : `${t.subscribers} subscribers`}
                      </span>
                    </p>
                    <ListRowActions what={what} index={i} count={draft.tiers.length} onMove={move} onRemove={remove} />
                  </div>
                  <TextField
                    label="Name"
                    value={t.name}
                    maxLength={TIER_NAME_MAX}
                    placeholder="Standard"
                    onChange={(e) => setTier(i, { name: e.target.value })}
                    error={err("name")}
                  />
                  <TextareaField
                    label="Description"
                    value={t.description}
                    maxLength={TIER_DESCRIPTION_MAX}
                    rows={2}
                    placeholder="What members of this tier get"
                    onChange={(e) => setTier(i, { description: e.target.value })}
                    error={err("description")}
                  />
                  <SwitchRow
                    label="Free"
                    description="Members join this tier without paying."
                    checked={t.free}
                    onCheckedChange={(free) => setTier(i, { free })}
                    className="py-0"
                  />
                  {!t.free && (
                    <div className="grid gap-4 sm:grid-cols-3">
                      <MoneyField
                        label="Monthly price"
                        code={code}
                        value={t.monthly}
                        onChange={(monthly) => setTier(i, { monthly })}
                        error={err("monthly_amount")}
                      />
                      <MoneyField
                        label="Annual price (optional)"
                        code={code}
                        value={t.annual}
                        onChange={(annual) => setTier(i, { annual })}
                        error={err("annual_amount")}
                      />
                      <TextField
                        label="Trial days"
                        inputMode="numeric"
                        value={t.trial}
                        onChange={(e) => setTier(i, { trial: e.target.value })}
                        error={err("trial_days")}
                        hint={`0–${TRIAL_DAYS_MAX}`}
                      />
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
          {draft.tiers.length < MAX_TIERS && (
            <Button variant="secondary" onClick={add}>
              <Plus className="size-4" aria-hidden="true" />
              Add tier
            </Button>
          )}
        </PanelSection>
      </PanelBody>
      <SaveBar
        pending={save.isPending}
        dirty={dirty}
        error={save.error}
        success={flash.message}
        onDiscard={() => {
          save.reset();
          setSubmitted(false);
          setDraft(saved);
        }}
      />
    </form>
  );
}

/** A price typed in the currency's units, its code before it. */
function MoneyField({
  label,
  code,
  value,
  onChange,
  error,
}: {
  label: string;
  code: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <div className="relative">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-xs font-semibold text-stone-500">
            {code}
          </span>
          <input
            {...control}
            className={cn(inputClasses, "h-10 pl-12 tabular-nums")}
            inputMode="decimal"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      )}
    </Field>
  );
}
