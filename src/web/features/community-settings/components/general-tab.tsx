import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { communityNameSchema, updateCommunitySchema } from "#shared/communities.schemas";
import { LIMITS } from "#shared/limits";
import { TextareaField, TextField } from "#web/components/ui/field";
import { dirtyValues } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { DangerZone } from "./danger-zone";
import { ImageUpload } from "./image-upload";
import { Counter, PanelBody, PanelSection, SettingsForm, type SettingsTabProps } from "./settings-panel";
import { useCommunitySettingsForm } from "./use-community-settings-form";

const generalSchema = z.object({
  name: communityNameSchema,
  description: updateCommunitySchema.shape.description.unwrap(),
});
type GeneralInput = z.input<typeof generalSchema>;
type GeneralOutput = z.output<typeof generalSchema>;

const toValues = (c: CommunityView): GeneralInput => ({ name: c.name, description: c.description });

/** Name, description, icon and cover (SPEC §2, §5); the owner's danger zone. */
export function GeneralTab({ community, onDirtyChange, section }: SettingsTabProps) {
  const images = useRef<HTMLDivElement>(null);
  // Opened from "Add icon & cover image": the pictures, not the name, are what the owner came for.
  useEffect(() => {
    if (section === "images") images.current?.scrollIntoView({ block: "start" });
  }, [section]);
  const { register, control, errors, ...settings } = useCommunitySettingsForm(community, {
    toValues,
    resolver: zodResolver(generalSchema),
    changes: dirtyValues<GeneralOutput>,
    savedMessage: "Settings saved.",
    onDirtyChange,
  });
  const name = useWatch({ control, name: "name" }) ?? "";
  const description = useWatch({ control, name: "description" }) ?? "";

  const canDelete = community.viewer.permissions.includes("delete_community");

  return (
    <div className="flex min-h-full flex-col">
      <SettingsForm
        settings={settings}
        className="flex flex-col"
        title="General"
        description="How your community introduces itself."
      >
        <TextField
          label="Community name"
          maxLength={LIMITS.communityNameMax}
          autoComplete="off"
          error={errors.name?.message}
          aside={<Counter value={name.length} max={LIMITS.communityNameMax} />}
          {...register("name")}
        />
        <TextareaField
          label="Description"
          rows={3}
          maxLength={LIMITS.communityDescriptionMax}
          placeholder="What is your community about, and who is it for?"
          hint="Shown on your community page, in the directory and on invite links."
          error={errors.description?.message}
          aside={<Counter value={description.length} max={LIMITS.communityDescriptionMax} />}
          {...register("description")}
        />
      </SettingsForm>
      <div ref={images} className="scroll-mt-2" />
      <PanelBody className="border-t border-stone-200 bg-stone-50/60">
        <PanelSection title="Icon" description="A square SVG, shown beside your community's name everywhere.">
          <ImageUpload community={community} kind="icon" />
        </PanelSection>
        <PanelSection title="Cover image" description="The banner at the top of your community page.">
          <ImageUpload community={community} kind="cover" />
        </PanelSection>
        {canDelete && <DangerZone community={community} />}
      </PanelBody>
    </div>
  );
}
