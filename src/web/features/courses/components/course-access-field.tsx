import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type Control, type FieldErrors, type UseFormRegister, useWatch } from "react-hook-form";
import type { z } from "zod";
import { COURSE_LIMITS, COURSE_MESSAGES } from "#shared/courses";
import { levelName } from "#shared/levels";
import type { createCourseSchema } from "#shared/courses.schemas";
import { currencyDecimals, type CourseAccessMode } from "#shared/payments";
import { Field, inputClasses, PriceField } from "#web/components/ui/field";
import { findCachedCommunity } from "#web/features/communities";
import { api, unwrap } from "#web/lib/api";
import { cn } from "#web/lib/cn";

type Input = z.input<typeof createCourseSchema>;

const CHOICES: { value: CourseAccessMode; label: string; description: string }[] = [
  { value: "members", label: "Everyone in the community", description: "Every member can take it." },
  { value: "tiers", label: "Members of chosen tiers", description: "Only members on the tiers you tick." },
  { value: "sold", label: "Sold separately", description: "Members buy it once, at its own price." },
  {
    value: "level",
    label: COURSE_MESSAGES.unlocksAtLevel,
    description: "Members who reached a level; owners, admins and moderators always.",
  },
];

/** The levels that may unlock a course (2..9). */
const UNLOCK_LEVELS = Array.from(
  { length: COURSE_LIMITS.unlockLevelMax - COURSE_LIMITS.unlockLevelMin + 1 },
  (_, i) => COURSE_LIMITS.unlockLevelMin + i,
);

/** The currency's sign as the reader's locale writes it ("$", "€", "¥"). */
const symbolOf = (currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() })
    .formatToParts(0)
    .find((p) => p.type === "currency")?.value ?? currency.toUpperCase();

/**
 * Who a course is open to: every member, the members of chosen tiers, buyers (with its price), or
 * members from a level on (named as the community names its levels).
 */
export function CourseAccessField({
  communityId,
  control,
  register,
  errors,
}: {
  communityId: string;
  control: Control<Input>;
  register: UseFormRegister<Input>;
  errors: FieldErrors<Input>;
}) {
  const access = useWatch({ control, name: "access" }) ?? "members";
  const tiers = useQuery({
    queryKey: ["communities", communityId, "tiers"],
    queryFn: () => unwrap(api.GET("/api/communities/{communityId}/tiers", { params: { path: { communityId } } })),
  });
  // The level names as the community page read them (the defaults when it did not).
  const levelNames = findCachedCommunity(useQueryClient(), communityId)?.data.level_names ?? null;
  const currency = tiers.data?.currency ?? "usd";
  const decimals = currencyDecimals(currency);
  const tierError = errors.tier_ids?.message ?? errors.tier_ids?.root?.message;
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-semibold text-stone-900">Access</legend>
      <div className="grid gap-2">
        {CHOICES.map((c) => (
          <label
            key={c.value}
            className={cn(
              "flex cursor-pointer gap-3 rounded-xl border p-3",
              access === c.value ? "border-brand-600 bg-brand-50/60" : "border-stone-200 hover:border-stone-300",
            )}
          >
            <input type="radio" value={c.value} className="mt-1 accent-brand-700" {...register("access")} />
            <span>
              <span className="block text-sm font-semibold text-stone-900">{c.label}</span>
              <span className="block text-xs text-stone-600">{c.description}</span>
            </span>
          </label>
        ))}
      </div>
      {access === "tiers" && (
        <div role="group" aria-label="Tiers that open this course" className="space-y-2 pl-1">
          {tiers.data?.tiers.length === 0 && (
            <p className="text-sm text-stone-600">Add tiers in Settings → Pricing first.</p>
          )}
          {tiers.data?.tiers.map((t) => (
            <label key={t.id} className="flex items-center gap-2 text-sm text-stone-800">
              <input type="checkbox" value={t.id} className="accent-brand-700" {...register("tier_ids")} />
              {t.name}
            </label>
          ))}
          {tierError && <p className="text-sm text-red-700">{tierError}</p>}
        </div>
      )}
      {access === "level" && (
        <Field
          label={COURSE_MESSAGES.unlocksAtLevel}
          error={errors.unlock_level?.message}
          hint="Members earn points when others like their posts and comments."
          className="max-w-xs"
        >
          {(ids) => (
            <select
              {...ids}
              className={cn(inputClasses, "h-10")}
              {...register("unlock_level", { valueAsNumber: true, shouldUnregister: true })}
            >
              {UNLOCK_LEVELS.map((level) => (
                <option key={level} value={level}>
                  Level {level} ({levelName(levelNames, level)})
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {access === "sold" && (
        <PriceField
          label={`Price (${currency.toUpperCase()})`}
          symbol={symbolOf(currency)}
          error={errors.price?.message}
          hint="Charged once. Members who bought it keep it."
          className="max-w-xs"
          step={decimals === 0 ? 1 : 0.01}
          min={0}
          max={COURSE_LIMITS.priceMax}
          {...register("price", { valueAsNumber: true, shouldUnregister: true })}
        />
      )}
    </fieldset>
  );
}
