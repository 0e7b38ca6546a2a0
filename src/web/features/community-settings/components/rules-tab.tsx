import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, ScrollText } from "lucide-react";
import { Controller, useFieldArray } from "react-hook-form";
import { z } from "zod";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { updateCommunitySchema } from "#shared/communities.schemas";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { SwitchRow } from "#web/components/ui/switch";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import { ListRowActions } from "./list-row-actions";
import { Counter, EmptyList, ListError, PanelSection, SettingsForm, type SettingsTabProps } from "./settings-panel";
import { useCommunitySettingsForm } from "./use-community-settings-form";

const ruleSchema = updateCommunitySchema.shape.rules.unwrap().element;
// Rows are objects: useFieldArray tracks objects, not strings.
const rulesFormSchema = z.object({
  rules: z
    .array(z.object({ text: ruleSchema }))
    .max(COMMUNITY_LIMITS.rulesMax, `At most ${COMMUNITY_LIMITS.rulesMax} rules`),
  moderation_enabled: z.boolean(),
});
type RulesInput = z.input<typeof rulesFormSchema>;
type RulesOutput = z.output<typeof rulesFormSchema>;

const toValues = (c: CommunityView): RulesInput => ({
  rules: c.rules.map((text) => ({ text })),
  moderation_enabled: c.moderation_enabled,
});

/** Up to 10 community rules, in order, and whether members' posts wait for approval. */
export function RulesTab({ community, onDirtyChange }: SettingsTabProps) {
  const { form, register, control, errors, ...settings } = useCommunitySettingsForm(community, {
    toValues,
    resolver: zodResolver(rulesFormSchema),
    changes: (form: RulesOutput, dirty) => ({
      rules: form.rules.map((r) => r.text),
      ...(dirty.moderation_enabled ? { moderation_enabled: form.moderation_enabled } : {}),
    }),
    savedMessage: "Rules saved.",
    onDirtyChange,
  });
  const { fields, append, remove, move } = useFieldArray({ control, name: "rules" });
  const full = fields.length >= COMMUNITY_LIMITS.rulesMax;

  const onAdd = () => {
    append({ text: "" }, { shouldFocus: false });
    window.setTimeout(() => form.setFocus(`rules.${fields.length}.text`), 0);
  };

  return (
    <SettingsForm
      settings={settings}
      saveLabel="Save rules"
      title="Rules"
      description="Shown on the About tab. Keep them short and clear."
      aside={<Counter value={fields.length} max={COMMUNITY_LIMITS.rulesMax} />}
    >
      {fields.length === 0 ? (
        <EmptyList icon={ScrollText} title="No rules yet">
          A few rules, such as "Be kind" or "No spam", tell newcomers what this place is about.
        </EmptyList>
      ) : (
        <ol className="space-y-2">
          {fields.map((field, index) => {
            const error = errors.rules?.[index]?.text?.message;
            return (
              <li key={field.id} className="rounded-xl border border-stone-200 bg-white p-2 shadow-xs">
                {/* On narrow screens the buttons wrap under the rule, which keeps its width. */}
                <div className="flex flex-wrap items-start justify-end gap-2">
                  <span
                    className="mt-2 flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-bold text-brand-800 tabular-nums"
                    aria-hidden="true"
                  >
                    {index + 1}
                  </span>
                  <div className="min-w-48 flex-1">
                    {/* Grows with its text, so a long rule is read whole. */}
                    <textarea
                      className={cn(inputClasses, "min-h-10 resize-none py-2 leading-snug [field-sizing:content]")}
                      rows={1}
                      aria-label={`Rule ${index + 1}`}
                      placeholder="Be kind and respectful"
                      maxLength={COMMUNITY_LIMITS.ruleMax}
                      aria-invalid={error ? true : undefined}
                      {...register(`rules.${index}.text`)}
                    />
                  </div>
                  <ListRowActions
                    what={`rule ${index + 1}`}
                    index={index}
                    count={fields.length}
                    onMove={move}
                    onRemove={remove}
                  />
                </div>
                {error && <p className="mt-1.5 pl-9 text-sm text-red-700">{error}</p>}
              </li>
            );
          })}
        </ol>
      )}
      <ListError message={errors.rules?.root?.message} />
      <Button variant="secondary" onClick={onAdd} disabled={full}>
        <Plus className="size-4" aria-hidden="true" />
        {full ? `${COMMUNITY_LIMITS.rulesMax} rules is the most` : "Add rule"}
      </Button>

      <PanelSection title="Moderation">
        <div className="rounded-xl border border-stone-200 bg-white px-4">
          <Controller
            control={control}
            name="moderation_enabled"
            render={({ field }) => (
              <SwitchRow
                label="Approve posts before they appear"
                description="New posts wait for an owner, admin or moderator to approve them. The creator's posts always appear at once."
                checked={field.value}
                onCheckedChange={field.onChange}
              />
            )}
          />
        </div>
      </PanelSection>
    </SettingsForm>
  );
}
