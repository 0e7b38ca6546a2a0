import { zodResolver } from "@hookform/resolvers/zod";
import { Controller } from "react-hook-form";
import { z } from "zod";
import { LEVEL_COUNT } from "#shared/levels";
import { REPORT_LIMITS } from "#shared/reports";
import { reportSettingsSchema } from "#shared/reports.schemas";
import { Field, inputClasses } from "#web/components/ui/field";
import { Select } from "#web/components/ui/select";
import { cn } from "#web/lib/cn";
import { levelLabel } from "#web/features/levels";
import { type ReportSettings, useReportSettings, useUpdateReportSettings } from "#web/features/reports";
import { dirtyValues, useSettingsForm } from "#web/lib/use-settings-form";
import { PanelSection, settingsLoadState, SettingsForm, type SettingsTabProps } from "./settings-panel";

const shape = reportSettingsSchema.shape;
/** The form checks what the server checks: the shared schema's fields, both present. */
export const moderationFormSchema = z.object({
  hide_threshold: shape.hide_threshold.unwrap(),
  min_message_level: shape.min_message_level.unwrap(),
});
type ModerationValues = z.infer<typeof moderationFormSchema>;

const toValues = (s: ReportSettings): ModerationValues => ({
  hide_threshold: s.hide_threshold,
  min_message_level: s.min_message_level,
});

const LEVELS = Array.from({ length: LEVEL_COUNT }, (_, i) => i + 1);

/** Settings → Moderation: how many reports hide a post or comment, and the level needed to start a chat. */
export function ModerationTab({ community, onDirtyChange }: SettingsTabProps) {
  const settings = useReportSettings(community.id);
  const waiting = settingsLoadState(settings, "Loading moderation settings");
  if (waiting || !settings.data) return waiting;
  return (
    <ModerationForm
      communityId={community.id}
      saved={settings.data}
      levelNames={community.level_names}
      onDirtyChange={onDirtyChange}
    />
  );
}

function ModerationForm({
  communityId,
  saved,
  levelNames,
  onDirtyChange,
}: {
  communityId: string;
  saved: ReportSettings;
  levelNames: readonly string[] | null | undefined;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { form, ...settings } = useSettingsForm<ModerationValues, ModerationValues, ReportSettings>({
    source: saved,
    toValues,
    resolver: zodResolver(moderationFormSchema),
    mutation: useUpdateReportSettings(communityId),
    changes: dirtyValues<ModerationValues>,
    savedMessage: "Moderation settings saved.",
    onDirtyChange,
  });
  const { register, control, formState } = form;
  const errors = formState.errors;
  const levelOptions = LEVELS.map((level) => ({
    value: String(level),
    label: level === 1 ? `${levelLabel(1, levelNames)}: any member` : levelLabel(level, levelNames),
  }));

  return (
    <SettingsForm
      settings={settings}
      title="Moderation"
      description="Members can report posts, comments, messages and profiles. Owners, admins and moderators review the reports in the Admin tab."
    >
      <PanelSection
        title="Hide after reports"
        description="A post or comment reported by this many different members is hidden until a moderator reviews it. Its author is told."
      >
        <Field
          label="Reports that hide a post or comment"
          error={errors.hide_threshold?.message}
          hint={`From ${REPORT_LIMITS.hideThresholdMin} to ${REPORT_LIMITS.hideThresholdMax}. The default is ${REPORT_LIMITS.defaultHideThreshold}.`}
          className="max-w-sm"
        >
          {(ids) => (
            <input
              {...ids}
              type="number"
              inputMode="numeric"
              min={REPORT_LIMITS.hideThresholdMin}
              max={REPORT_LIMITS.hideThresholdMax}
              className={cn(inputClasses, "h-10 w-32 tabular-nums")}
              {...register("hide_threshold", { valueAsNumber: true })}
            />
          )}
        </Field>
      </PanelSection>

      <PanelSection
        title="Messages"
        description="The level a member needs in this community to start a chat with someone they met here. Owners, admins and moderators can always start one."
      >
        <div className="max-w-sm">
          <Controller
            control={control}
            name="min_message_level"
            render={({ field }) => (
              <Field label="Level needed to start a chat" error={errors.min_message_level?.message}>
                {(ids) => (
                  <Select
                    {...ids}
                    value={String(field.value)}
                    onValueChange={(value) => field.onChange(Number(value))}
                    options={levelOptions}
                  />
                )}
              </Field>
            )}
          />
        </div>
      </PanelSection>
    </SettingsForm>
  );
}
