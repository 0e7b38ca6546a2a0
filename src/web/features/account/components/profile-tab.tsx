import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId } from "react";
import { Controller, useWatch } from "react-hook-form";
import type { z } from "zod";
import { LANGUAGES, LIMITS, TIMEZONES } from "#shared/limits";
import { MSG } from "#shared/messages";
import { MESSAGE_POLICIES, MESSAGE_POLICY_LABELS, messagePolicyOf } from "#shared/messaging";
import { profileUpdateSchema } from "#shared/validation.schemas";
import { UsernameField } from "#web/components/username-field";
import { Button } from "#web/components/ui/button";
import { Field, TextareaField, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Select } from "#web/components/ui/select";
import { SwitchRow } from "#web/components/ui/switch";
import { BlockedPeople } from "#web/features/messages";
import { errorMessage } from "#web/lib/api";
import type { OwnProfile } from "#web/lib/session";
import { dirtyValues, useSettingsForm } from "#web/lib/use-settings-form";
import { useUsernameCheck } from "#web/lib/username-check";
import { type ProfileChanges, useUpdateProfile } from "../api/update-profile";
import { AvatarEditor } from "./avatar-editor";

const profileFormSchema = profileUpdateSchema.required();
type ProfileFormInput = z.input<typeof profileFormSchema>;
type ProfileFormOutput = z.output<typeof profileFormSchema>;

function toFormValues(profile: OwnProfile): ProfileFormInput {
  return {
    full_name: profile.full_name,
    username: profile.username,
    headline: profile.headline,
    bio: profile.bio,
    location: profile.location,
    timezone: profile.timezone,
    language: profile.language,
    website_url: profile.website_url,
    twitter_url: profile.twitter_url,
    facebook_url: profile.facebook_url,
    instagram_url: profile.instagram_url,
    linkedin_url: profile.linkedin_url,
    email_public: profile.email_public,
    allow_messages: profile.allow_messages,
    show_in_directory: profile.show_in_directory,
  };
}

const LINK_FIELDS = [
  { name: "website_url", label: "Website", placeholder: "https://your-site.com" },
  { name: "twitter_url", label: "Twitter", placeholder: "https://twitter.com/you" },
  { name: "facebook_url", label: "Facebook", placeholder: "https://facebook.com/you" },
  { name: "instagram_url", label: "Instagram", placeholder: "https://instagram.com/you" },
  { name: "linkedin_url", label: "LinkedIn", placeholder: "https://linkedin.com/in/you" },
] as const;

export function ProfileTab({
  profile,
  email,
  onDirtyChange,
}: {
  profile: OwnProfile;
  email: string;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const formId = useId();
  const update = useUpdateProfile();
  const { form, onSubmit, saveBar } = useSettingsForm({
    source: profile,
    toValues: toFormValues,
    resolver: zodResolver(profileFormSchema),
    // The form starts from the profile and is not refreshed under the person's hands.
    follow: false,
    mutation: update,
    changes: (values: ProfileFormOutput, dirty) => dirtyValues(values, dirty) as ProfileChanges,
    savedMessage: "Your profile has been updated.",
    onDirtyChange,
    canSave: () => {
      if (taken) form.setFocus("username");
      return !taken;
    },
  });
  const {
    register,
    control,
    formState: { errors, isDirty },
  } = form;

  const username = useWatch({ control, name: "username" });
  const headline = useWatch({ control, name: "headline" }) ?? "";
  const usernameStatus = useUsernameCheck(username, profile.username);
  const taken = usernameStatus.state === "taken";

  return (
    <form onSubmit={onSubmit} noValidate>
      <div className="space-y-8 px-6 py-6 sm:px-8">
        <AvatarEditor avatarUrl={profile.avatar_url} name={profile.full_name || profile.username} />

        <Section title="About you">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Full name"
              autoComplete="name"
              maxLength={LIMITS.fullNameMax}
              error={errors.full_name?.message}
              {...register("full_name")}
            />
            <UsernameField
              registration={register("username")}
              status={usernameStatus}
              formError={errors.username?.message}
            />
          </div>
          <TextField
            label="Headline"
            placeholder="What you do, in a sentence"
            maxLength={LIMITS.headlineMax}
            error={errors.headline?.message}
            aside={
              <span
                className={headline.length >= LIMITS.headlineMax ? "text-sm text-red-700" : "text-sm text-stone-600"}
              >
                {headline.length}/{LIMITS.headlineMax}
              </span>
            }
            {...register("headline")}
          />
          <TextareaField
            label="Bio"
            rows={4}
            maxLength={LIMITS.bioMax}
            placeholder="A few words about yourself, what you make, what you care about."
            error={errors.bio?.message}
            {...register("bio")}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField
              label="Location"
              autoComplete="address-level2"
              placeholder="City, country"
              maxLength={100}
              error={errors.location?.message}
              {...register("location")}
            />
            <Controller
              control={control}
              name="timezone"
              render={({ field }) => (
                <Field label="Timezone" error={errors.timezone?.message}>
                  {(ids) => <Select {...ids} value={field.value} onValueChange={field.onChange} options={TIMEZONES} />}
                </Field>
              )}
            />
            <Controller
              control={control}
              name="language"
              render={({ field }) => (
                <Field label="Language" error={errors.language?.message}>
                  {(ids) => <Select {...ids} value={field.value} onValueChange={field.onChange} options={LANGUAGES} />}
                </Field>
              )}
            />
          </div>
        </Section>

        <Section title="Links" description="Shown on your public profile. Addresses start with http:// or https://.">
          <div className="grid gap-4 sm:grid-cols-2">
            {LINK_FIELDS.map(({ name, label, placeholder }) => (
              <TextField
                key={name}
                label={label}
                type="url"
                inputMode="url"
                placeholder={placeholder}
                error={errors[name]?.message}
                {...register(name)}
              />
            ))}
          </div>
        </Section>

        <Section title="Privacy">
          <div className="divide-y divide-stone-200 rounded-xl border border-stone-200 px-4">
            <Controller
              control={control}
              name="email_public"
              render={({ field }) => (
                <SwitchRow
                  label="Show my email on my profile"
                  description={`Anyone can see ${email} on your public profile.`}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            <Controller
              control={control}
              name="allow_messages"
              render={({ field }) => (
                <div className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
                  <div className="min-w-0">
                    <label htmlFor={`${formId}-policy`} className="block text-sm font-medium text-stone-900">
                      Who can message me
                    </label>
                    <p id={`${formId}-policy-desc`} className="mt-0.5 text-sm text-stone-600">
                      Who may start a conversation with you. People you block can never message you.
                    </p>
                  </div>
                  <div className="sm:w-64 sm:shrink-0">
                    <Select
                      id={`${formId}-policy`}
                      aria-describedby={`${formId}-policy-desc`}
                      value={messagePolicyOf(field.value)}
                      onValueChange={(value) => field.onChange(value === "members")}
                      options={MESSAGE_POLICIES.map((policy) => ({
                        value: policy,
                        label: MESSAGE_POLICY_LABELS[policy],
                      }))}
                    />
                  </div>
                </div>
              )}
            />
            <Controller
              control={control}
              name="show_in_directory"
              render={({ field }) => (
                <SwitchRow
                  label="Show me in member lists"
                  description="Appear in the member lists of communities you join."
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </div>
        </Section>

        <Section title="Blocked people" description="They can't message you and you don't see their new messages.">
          <BlockedPeople />
        </Section>
      </div>

      <div className="sticky bottom-0 flex flex-col gap-3 border-t border-stone-200 bg-white/95 px-6 py-4 backdrop-blur sm:flex-row sm:items-center sm:justify-between sm:px-8">
        <div className="min-w-0 flex-1" aria-live="polite">
          {update.error && (
            <FormMessage tone="error">
              {errorMessage(update.error, MSG.profileUpdateFailed, ["CONFLICT", "VALIDATION"])}
            </FormMessage>
          )}
          {saveBar.success && <FormMessage tone="success">{saveBar.success}</FormMessage>}
          {!update.error && !saveBar.success && isDirty && (
            <p className="text-sm text-stone-600">You have unsaved changes.</p>
          )}
        </div>
        <Button type="submit" loading={update.isPending} disabled={!isDirty || taken}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="space-y-4">
      <div>
        <h3 className="text-base font-semibold text-stone-900">{title}</h3>
        {description && <p className="mt-0.5 text-sm text-stone-600">{description}</p>}
      </div>
      {children}
    </section>
  );
}
