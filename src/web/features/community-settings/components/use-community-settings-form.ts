import type { FieldValues } from "react-hook-form";
import { useSettingsForm } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { type CommunityChanges, useUpdateCommunity } from "../api/update-community";

type Options<TInput extends FieldValues, TOutput extends FieldValues> = Omit<
  Parameters<typeof useSettingsForm<TInput, TOutput, CommunityView, CommunityChanges>>[0],
  "source" | "mutation"
>;

/**
 * A settings tab's form saved by updating the community: useSettingsForm on `community`, with the
 * form's `register`, `control` and `errors` at hand.
 */
export function useCommunitySettingsForm<TInput extends FieldValues, TOutput extends FieldValues = TInput>(
  community: CommunityView,
  options: Options<TInput, TOutput>,
) {
  const settings = useSettingsForm({ ...options, source: community, mutation: useUpdateCommunity(community.id) });
  const { register, control, formState } = settings.form;
  return { ...settings, register, control, errors: formState.errors };
}
