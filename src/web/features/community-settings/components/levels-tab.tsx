import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useWatch } from "react-hook-form";
import { z } from "zod";
import { LEVEL_COUNT, LEVEL_LIMITS } from "#shared/levels";
import { updateLevelSettingsSchema } from "#shared/levels.schemas";
import { Field, inputClasses } from "#web/components/ui/field";
import { Select } from "#web/components/ui/select";
import { SwitchRow } from "#web/components/ui/switch";
import { FormMessage } from "#web/components/ui/form-message";
import { cn } from "#web/lib/cn";
import { levelLabel } from "#web/features/levels";
import { dirtyValues, useSettingsForm } from "#web/lib/use-settings-form";
import { type LevelSettings, useLevelSettings, useUpdateLevelSettings } from "../api/level-settings";
import { PanelSection, settingsLoadState, SettingsForm, type SettingsTabProps } from "./settings-panel";

const shape = updateLevelSettingsSchema.shape;
/** The form checks what the server checks: the shared schema's fields, all present. */
export const levelsFormSchema = z.object({
  names: shape.names.unwrap(),
  thresholds: shape.thresholds.unwrap(),
  points_per_lesson: shape.points_per_lesson.unwrap(),
  points_per_event: shape.points_per_event.unwrap(),
  min_post_level: shape.min_post_level.unwrap(),
});
type LevelsInput = z.input<typeof levelsFormSchema>;
type LevelsOutput = z.output<typeof levelsFormSchema>;

const toValues = (s: LevelSettings): LevelsInput => ({
  names: [...s.names],
  thresholds: [...s.thresholds],
  points_per_lesson: s.points_per_lesson,
  points_per_event: s.points_per_event,
  min_post_level: s.min_post_level,
});

const LEVELS = Array.from({ length: LEVEL_COUNT }, (_, i) => i + 1);

/** Settings → Levels: what each level is called, the points it needs, bonus points and who may post. */
export function LevelsTab({ community, onDirtyChange }: SettingsTabProps) {
  const settings = useLevelSettings(community.id);
  const waiting = settingsLoadState(settings, "Loading level settings");
  if (waiting || !settings.data) return waiting;
  return <LevelsForm communityId={community.id} saved={settings.data} onDirtyChange={onDirtyChange} />;
}

export function LevelsForm({
  communityId,
  saved,
  onDirtyChange,
}: {
  communityId: string;
  saved: LevelSettings;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { form, ...settings } = useSettingsForm<LevelsInput, LevelsOutput, LevelSettings>({
    source: saved,
    toValues,
    resolver: zodResolver(levelsFormSchema),
    mutation: useUpdateLevelSettings(communityId),
    changes: dirtyValues<LevelsOutput>,
    savedMessage: "Level settings saved.",
    onDirtyChange,
  });
  const { register, control, formState, setValue } = form;
  const errors = formState.errors;
  const names = useWatch({ control, name: "names" }) ?? saved.names;
  const lessonPoints = useWatch({ control, name: "points_per_lesson" });
  const eventPoints = useWatch({ control, name: "points_per_event" });
  const thresholdsError = errors.thresholds?.message ?? errors.thresholds?.root?.message;
  const levelOptions = LEVELS.map((level) => ({
    value: String(level),
    label: level === 1 ? `${levelLabel(1, names)}: everyone` : levelLabel(level, names),
  }));
  const number = { valueAsNumber: true } as const;

  return (
    <SettingsForm
      settings={settings}
      title="Levels"
      description="Members earn a point for every like their posts and comments receive. Name the nine levels and choose the points each one needs."
    >
      <PanelSection title="Level names and points">
        <ol className="space-y-3">
          {LEVELS.map((level, i) => (
            <li key={level} className="grid grid-cols-[2rem_1fr_8rem] items-start gap-3">
              <span
                aria-hidden="true"
                className="mt-7 flex size-7 items-center justify-center rounded-full bg-brand-700 text-xs font-bold text-white"
              >
                {level}
              </span>
              <Field label={`Level ${level} name`} error={errors.names?.[i]?.message}>
                {(ids) => (
                  <input
                    {...ids}
                    className={cn(inputClasses, "h-10")}
                    maxLength={LEVEL_LIMITS.nameMax}
                    {...register(`names.${i}`)}
                  />
                )}
              </Field>
              <Field label="Points" error={errors.thresholds?.[i]?.message}>
                {(ids) => (
                  <input
                    {...ids}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={LEVEL_LIMITS.thresholdMax}
                    readOnly={i === 0}
                    className={cn(inputClasses, "h-10 tabular-nums read-only:bg-stone-100")}
                    {...register(`thresholds.${i}`, number)}
                  />
                )}
              </Field>
            </li>
          ))}
        </ol>
        {thresholdsError && <FormMessage tone="error">{thresholdsError}</FormMessage>}
        {errors.names?.message && <FormMessage tone="error">{errors.names.message}</FormMessage>}
      </PanelSection>

      <PanelSection title="Bonus points" description="Besides likes, members can earn points for taking part.">
        <BonusRow
          label="Points per completed lesson"
          checked={(lessonPoints ?? 0) > 0}
          onCheckedChange={(on) => setValue("points_per_lesson", on ? 1 : 0, { shouldDirty: true })}
          error={errors.points_per_lesson?.message}
          input={register("points_per_lesson", number)}
        />
        <BonusRow
          label="Points per attended event"
          checked={(eventPoints ?? 0) > 0}
          onCheckedChange={(on) => setValue("points_per_event", on ? 1 : 0, { shouldDirty: true })}
          error={errors.points_per_event?.message}
          input={register("points_per_event", number)}
        />
      </PanelSection>

      <PanelSection
        title="Minimum level to post"
        description="Members below it can still comment. Owners, admins and moderators can always post."
      >
        <div className="max-w-sm">
          <Controller
            control={control}
            name="min_post_level"
            render={({ field }) => (
              <Field label="Level needed to post" error={errors.min_post_level?.message}>
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

function BonusRow({
  label,
  checked,
  onCheckedChange,
  error,
  input,
}: {
  label: string;
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
  error: string | undefined;
  input: ReturnType<ReturnType<typeof useSettingsForm<LevelsInput, LevelsOutput, LevelSettings>>["form"]["register"]>;
}) {
  return (
    <div className="flex flex-wrap items-start gap-4">
      <SwitchRow label={label} checked={checked} onCheckedChange={onCheckedChange} className="min-w-60 flex-1" />
      {checked && (
        <Field label="Points" error={error} className="w-32">
          {(ids) => (
            <input
              {...ids}
              type="number"
              inputMode="numeric"
              min={0}
              max={LEVEL_LIMITS.bonusPointsMax}
              className={cn(inputClasses, "h-10 tabular-nums")}
              {...input}
            />
          )}
        </Field>
      )}
    </div>
  );
}
