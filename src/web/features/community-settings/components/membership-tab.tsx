import { zodResolver } from "@hookform/resolvers/zod";
import { DoorOpen, Mail, MessageSquareText, Plus, Trash2 } from "lucide-react";
import { Controller, useFieldArray, useWatch } from "react-hook-form";
import { z } from "zod";
import { JOIN_MESSAGES, JOIN_POLICY_LABELS, JOIN_POLICIES, JOIN_REQUEST_LIMITS } from "#shared/membership";
import { updateMembershipSchema } from "#shared/membership.schemas";
import { Button } from "#web/components/ui/button";
import { TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { LoadingRegion } from "#web/components/ui/load-states";
import { SwitchRow } from "#web/components/ui/switch";
import { errorMessage } from "#web/lib/api";
import { useSettingsForm } from "#web/lib/use-settings-form";
import {
  type MembershipChanges,
  type MembershipSettings,
  useMembershipSettings,
  useUpdateMembershipSettings,
} from "#web/features/membership";
import { ChoiceCardsField } from "./choice-cards";
import { PanelSection, SettingsForm, type SettingsTabProps } from "./settings-panel";

const shape = updateMembershipSchema.shape;
const membershipSchema = z.object({
  join_policy: shape.join_policy.unwrap(),
  questions: z
    .array(z.object({ text: shape.questions.unwrap().element }))
    .max(JOIN_REQUEST_LIMITS.questionsMax, JOIN_MESSAGES.tooManyQuestions),
  ask_email: z.boolean(),
  auto_approve: z.boolean(),
  listed: z.boolean(),
  cooldown_days: shape.cooldown_days.unwrap(),
});
type MembershipInput = z.input<typeof membershipSchema>;
type MembershipOutput = z.output<typeof membershipSchema>;

const toValues = (s: MembershipSettings): MembershipInput => ({
  join_policy: s.join_policy,
  questions: s.questions.map((text) => ({ text })),
  ask_email: s.ask_email,
  auto_approve: s.auto_approve,
  listed: s.listed,
  cooldown_days: s.cooldown_days,
});

const ICONS = { open: <DoorOpen />, request: <MessageSquareText />, invite: <Mail /> };

/** Who can join: open, by request (questions, email, auto-approve, cooldown) or invite only; listing a private one. */
export function MembershipTab({ community, onDirtyChange }: SettingsTabProps) {
  const settings = useMembershipSettings(community.id);
  if (settings.isPending) {
    return (
      <LoadingRegion label="Loading membership settings" className="space-y-3 px-5 py-6 sm:px-8">
        <div className="h-40 animate-pulse rounded-2xl bg-stone-200/60" />
      </LoadingRegion>
    );
  }
  if (settings.isError) {
    return (
      <div className="px-5 py-6 sm:px-8">
        <FormMessage tone="error">{errorMessage(settings.error, "Failed to load membership settings.")}</FormMessage>
      </div>
    );
  }
  return (
    <MembershipForm
      communityId={community.id}
      isPrivate={community.visibility === "private"}
      saved={settings.data}
      onDirtyChange={onDirtyChange}
    />
  );
}

function MembershipForm({
  communityId,
  isPrivate,
  saved,
  onDirtyChange,
}: {
  communityId: string;
  isPrivate: boolean;
  saved: MembershipSettings;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const mutation = useUpdateMembershipSettings(communityId);
  const { form, ...rest } = useSettingsForm<MembershipInput, MembershipOutput, MembershipSettings, MembershipChanges>({
    source: saved,
    toValues,
    resolver: zodResolver(membershipSchema),
    mutation,
    changes: (v) => ({ ...v, questions: v.questions.map((q) => q.text) }),
    savedMessage: "Membership settings saved.",
    onDirtyChange,
  });
  const { control, register, formState } = form;
  const errors = formState.errors;
  const questions = useFieldArray({ control, name: "questions" });
  const policy = useWatch({ control, name: "join_policy" });
  // A private community is never open to everyone.
  const choices = JOIN_POLICIES.filter((p) => !(isPrivate && p === "open")).map((p) => ({
    value: p,
    label: JOIN_POLICY_LABELS[p].label,
    description: JOIN_POLICY_LABELS[p].description,
    icon: ICONS[p],
  }));

  return (
    <SettingsForm settings={rest} title="Membership" description="Decide who can join and how.">
      <ChoiceCardsField
        control={control}
        field="join_policy"
        legend="Who can join"
        name="join-policy"
        choices={choices}
      />
      {isPrivate && policy === "open" && <FormMessage tone="error">{JOIN_MESSAGES.privateOpen}</FormMessage>}

      {policy === "request" && (
        <>
          <PanelSection
            title="Membership questions"
            description={`Up to ${JOIN_REQUEST_LIMITS.questionsMax} questions people answer when they ask to join.`}
          >
            <div className="space-y-3">
              {questions.fields.map((field, i) => (
                <div key={field.id} className="flex items-end gap-2">
                  <TextField
                    className="flex-1"
                    label={`Question ${i + 1}`}
                    maxLength={JOIN_REQUEST_LIMITS.questionMax}
                    error={errors.questions?.[i]?.text?.message}
                    {...register(`questions.${i}.text`)}
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove question ${i + 1}`}
                    onClick={() => questions.remove(i)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </Button>
                </div>
              ))}
              {questions.fields.length < JOIN_REQUEST_LIMITS.questionsMax && (
                <Button type="button" variant="secondary" size="sm" onClick={() => questions.append({ text: "" })}>
                  <Plus className="size-4" aria-hidden="true" />
                  Add a question
                </Button>
              )}
            </div>
          </PanelSection>
          <div className="rounded-xl border border-stone-200 bg-white px-4">
            <Controller
              control={control}
              name="ask_email"
              render={({ field }) => (
                <SwitchRow
                  label="Ask for email"
                  description="Applicants give an email address with their answers."
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            <Controller
              control={control}
              name="auto_approve"
              render={({ field }) => (
                <SwitchRow
                  label="Auto-approve"
                  description="Everyone who asks joins at once. Turning it on approves the requests waiting now."
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </div>
          <div className="max-w-xs">
            <TextField
              type="number"
              min={0}
              max={JOIN_REQUEST_LIMITS.cooldownDaysMax}
              label="Days before a declined person can ask again"
              error={errors.cooldown_days?.message}
              {...register("cooldown_days", { valueAsNumber: true })}
            />
          </div>
        </>
      )}

      {isPrivate && (
        <div className="rounded-xl border border-stone-200 bg-white px-4">
          <Controller
            control={control}
            name="listed"
            render={({ field }) => (
              <SwitchRow
                label="List in the directory"
                description="Your community's card appears in the directory. Its posts and members stay private."
                checked={field.value}
                onCheckedChange={field.onChange}
              />
            )}
          />
        </div>
      )}
    </SettingsForm>
  );
}
