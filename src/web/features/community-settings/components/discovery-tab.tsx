import { zodResolver } from "@hookform/resolvers/zod";
import { Globe, Lock } from "lucide-react";
import { Controller, useWatch } from "react-hook-form";
import { z } from "zod";
import { COMMUNITY_CATEGORIES, COMMUNITY_LIMITS } from "#shared/communities";
import { updateCommunitySchema } from "#shared/communities.schemas";
import { Field, TextField } from "#web/components/ui/field";
import { Select } from "#web/components/ui/select";
import { dirtyValues, useSettingsForm } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { useUpdateCommunity } from "../api/update-community";
import { ChoiceCards } from "./choice-cards";
import { Counter, PanelBody, PanelHeader, SaveBar, type SettingsTabProps } from "./settings-panel";

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

const toValues = (c: CommunityView): DiscoveryInput => ({
  visibility: c.visibility,
  category: (c.category as DiscoveryInput["category"]) ?? null,
  tagline: c.tagline,
});

/** How people find the community: public or private, its directory category, and a tagline. */
export function DiscoveryTab({ community, onDirtyChange }: SettingsTabProps) {
  const { form, onSubmit, saveBar } = useSettingsForm({
    source: community,
    toValues,
    resolver: zodResolver(discoverySchema),
    mutation: useUpdateCommunity(community.id),
    changes: dirtyValues<DiscoveryOutput>,
    savedMessage: "Discovery settings saved.",
    onDirtyChange,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const tagline = useWatch({ control, name: "tagline" }) ?? "";

  return (
    <form onSubmit={onSubmit} noValidate className="flex min-h-full flex-col">
      <PanelBody>
        <PanelHeader title="Discovery" description="Decide who can find your community and how it is listed." />
        <Controller
          control={control}
          name="visibility"
          render={({ field }) => (
            <ChoiceCards
              legend="Visibility"
              name="community-visibility"
              value={field.value}
              onChange={field.onChange}
              choices={[
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
              ]}
            />
          )}
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
      </PanelBody>
      <SaveBar {...saveBar} />
    </form>
  );
}
