import { zodResolver } from "@hookform/resolvers/zod";
import { Gift, Wallet } from "lucide-react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { priceText } from "#shared/communities";
import { updateCommunitySchema } from "#shared/communities.schemas";
import { MSG } from "#shared/messages";
import { PriceField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import type { CommunityView } from "#web/features/communities";
import { ChoiceCardsField } from "./choice-cards";
import { SettingsForm, type SettingsTabProps } from "./settings-panel";
import { useCommunitySettingsForm } from "./use-community-settings-form";

const PAID_NEEDS_PRICE = "A paid community needs a monthly price above 0";

const priceSchema = updateCommunitySchema.shape.price.unwrap();
/** The price matters only for a paid community; a free one saves without it. */
const pricingSchema = z
  .object({ type: z.enum(["free", "paid"]), price: z.union([z.number(), z.nan()]) })
  .superRefine((value, ctx) => {
    if (value.type !== "paid") return;
    const problem = Number.isNaN(value.price)
      ? "Please enter a monthly price"
      : (priceSchema.safeParse(value.price).error?.issues[0]?.message ?? (value.price <= 0 ? PAID_NEEDS_PRICE : null));
    if (problem) ctx.addIssue({ code: "custom", path: ["price"], message: problem });
  });
type PricingInput = z.infer<typeof pricingSchema>;

const toValues = (c: CommunityView): PricingInput => ({ type: c.type, price: c.price });

/** Free or paid with a monthly price (payment itself is simulated, SPEC §4). */
export function PricingTab({ community, onDirtyChange }: SettingsTabProps) {
  const { register, control, errors, ...settings } = useCommunitySettingsForm(community, {
    toValues,
    resolver: zodResolver(pricingSchema),
    changes: (form: PricingInput) =>
      form.type === "free" ? { type: "free" as const } : { type: "paid" as const, price: Number(form.price) },
    savedMessage: (saved) => `Pricing saved: ${priceText(saved.type, saved.price)}.`,
    onDirtyChange,
  });
  const type = useWatch({ control, name: "type" });

  return (
    <SettingsForm
      settings={settings}
      title="Pricing"
      description="Choose whether members join for free or for a monthly fee."
    >
      <ChoiceCardsField
        control={control}
        field="type"
        legend="Membership"
        name="community-type"
        choices={[
          { value: "free", label: "Free", description: "Anyone can join at no cost.", icon: <Gift /> },
          {
            value: "paid",
            label: "Paid",
            description: "Members pay a monthly price, shown on your page.",
            icon: <Wallet />,
          },
        ]}
      />
      {type === "paid" && (
        <>
          <PriceField
            label="Monthly price (USD)"
            error={errors.price?.message}
            hint="Up to two decimals, for example 9.99."
            className="max-w-xs"
            min={0.01}
            suffix="per month"
            {...register("price", { valueAsNumber: true })}
          />
          <FormMessage tone="info">{MSG.paymentComingSoon}</FormMessage>
        </>
      )}
    </SettingsForm>
  );
}
