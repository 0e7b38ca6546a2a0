import { zodResolver } from "@hookform/resolvers/zod";
import { Globe, Lock } from "lucide-react";
import { Controller, useWatch } from "react-hook-form";
import { z } from "zod";
import { COMMUNITY_CATEGORIES, COMMUNITY_LIMITS } from "#shared/communities";
import { updateCommunitySchema } from "#shared/communities.schemas";
import { Field, TextField } from "#web/components/ui/field";
import { Select } from "#web/components/ui/select";
import { dirtyValues } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { ChoiceCardsField } from "./choice-cards";
import { Counter, SettingsForm, type SettingsTabProps } from "./settings-panel";
import { useCommunitySettingsForm } from "./use-community-settings-form";

const shape = updateCommunitySchema.shape;
const discoverySchema = z.object({
  visibility: shape.visibility.unwrap(),
  category: shape.category.unwrap(),
  tagline: shape.tagline.unwrap(),
});
type DiscoveryInput = z.input<typeof discoverySchema>;
type DiscoveryOutput = z.output<typeof discoverySchema>;

/** Radix Select has no empty value: "none" stands for no category. */
const NO_CATEGORY = "none";
const CATEGORY_OPTIONS = [
  { value: NO_CATEGORY, label: "No category" },
  ...COMMUNITY_CATEGORIES.map((c) => ({ value: c.id, label: c.label })),
];

const VISIBILITY_CHOICES = [
  {
    value: "public",
    label: "Public",
    description: "Listed in the directory. Anyone can see it and join.",
    icon: <Globe />,
  },
  {
    value: "private",
    label: "Private",
    description: "Hidden from the directory. People join with your invite link.",
    icon: <Lock />,
  },
];

const toValues = (c: CommunityView): DiscoveryInput => ({
  visibility: c.visibility,
  category: (c.category as DiscoveryInput["category"]) ?? null,
  tagline: c.tagline,
});

/** How people find the community: public or private, its directory category, and a tagline. */
export function DiscoveryTab({ community, onDirtyChange }: SettingsTabProps) {
  const { register, control, errors, ...settings } = useCommunitySettingsForm(community, {
    toValues,
    resolver: zodResolver(discoverySchema),
    changes: dirtyValues<DiscoveryOutput>,
    savedMessage: "Discovery settings saved.",
    onDirtyChange,
  });
  const tagline = useWatch({ control, name: "tagline" }) ?? "";

  return (
    <SettingsForm
      settings={settings}
      title="Discovery"
      description="Decide who can find your community and how it is listed."
    >
      <ChoiceCardsField
        control={control}
        field="visibility"
        legend="Visibility"
        name="community-visibility"
        choices={VISIBILITY_CHOICES}
      />
      <div className="max-w-sm">
        <Controller
          control={control}
          name="category"
          render={({ field }) => (
            <Field
              label="Directory category"
              hint="Where public communities appear on the home page."
              error={errors.category?.message}
            >
              {(ids) => (
                <Select
                  {...ids}
                  value={field.value ?? NO_CATEGORY}
                  onValueChange={(value) => field.onChange(value === NO_CATEGORY ? null : value)}
                  options={CATEGORY_OPTIONS}
                />
              )}
            </Field>
          )}
        />
      </div>
      <TextField
        label="Tagline"
        placeholder="One line that sums up your community"
        maxLength={COMMUNITY_LIMITS.taglineMax}
        hint="Shown under the name on your community's card."
        error={errors.tagline?.message}
        aside={<Counter value={tagline.length} max={COMMUNITY_LIMITS.taglineMax} />}
        {...register("tagline")}
      />
    </SettingsForm>
  );
}
