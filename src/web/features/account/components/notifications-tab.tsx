import { useId } from "react";
import { MSG } from "#shared/messages";
import { COMMUNITY_FLAG_LABELS, COMMUNITY_FLAGS, type CommunityFlag } from "#shared/notifications";
import { FormMessage } from "#web/components/ui/form-message";
import { Spinner } from "#web/components/ui/spinner";
import { SwitchRow } from "#web/components/ui/switch";
import { CommunityIcon } from "#web/features/communities";
import {
  type NotificationSettings,
  useNotificationSettings,
  useUpdateNotificationSettings,
} from "../api/notification-settings";

type GlobalKey = "global_enabled" | "in_app_enabled" | "email_enabled" | "push_enabled";

const CHANNELS: Array<{ key: Exclude<GlobalKey, "global_enabled">; label: string; description: string }> = [
  {
    key: "in_app_enabled",
    label: "In-app notifications",
    description: "Likes, replies and new members in Hearth's notification list.",
  },
  {
    key: "email_enabled",
    label: "Email notifications",
    description: "A message in your inbox about activity you care about.",
  },
  {
    key: "push_enabled",
    label: "Push notifications",
    description: "Alerts on your devices, even when Hearth is closed.",
  },
];

/** Switches save as they are flipped (SPEC §9 defaults: push off, everything else on). */
export function NotificationsTab() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();

  if (settings.isPending) {
    return (
      <div className="flex justify-center px-6 py-16">
        <Spinner label="Loading notification settings" />
      </div>
    );
  }
  if (settings.isError) {
    return (
      <div className="px-6 py-6 sm:px-8">
        <FormMessage tone="error">{settings.error.message}</FormMessage>
      </div>
    );
  }

  const data: NotificationSettings = settings.data;
  const set = (key: GlobalKey, value: boolean) => update.mutate({ [key]: value });

  return (
    <div className="space-y-6 px-6 py-6 sm:px-8">
      {update.isError && <FormMessage tone="error">{MSG.notificationsUpdateFailed}</FormMessage>}
      <div className="rounded-xl border border-stone-200 px-4">
        <SwitchRow
          label="All notifications"
          description="Turn every Hearth notification on or off at once."
          checked={data.global_enabled}
          onCheckedChange={(value) => set("global_enabled", value)}
        />
      </div>
      <section className="space-y-2">
        <h3 className="text-base font-semibold text-stone-900">How we reach you</h3>
        <div className="divide-y divide-stone-200 rounded-xl border border-stone-200 px-4">
          {CHANNELS.map(({ key, label, description }) => (
            <SwitchRow
              key={key}
              label={label}
              description={description}
              checked={data.global_enabled && data[key]}
              disabled={!data.global_enabled}
              onCheckedChange={(value) => set(key, value)}
            />
          ))}
        </div>
        {!data.global_enabled && (
          <p className="text-sm text-stone-600">Notifications are off. Turn on All notifications to choose channels.</p>
        )}
      </section>
      <section className="space-y-2">
        <h3 className="text-base font-semibold text-stone-900">Communities</h3>
        {data.communities.length === 0 ? (
          <p className="rounded-xl border border-dashed border-stone-300 bg-stone-50 px-4 py-5 text-sm text-stone-600">
            You haven&apos;t joined a community yet. Once you do, you can choose here what each one notifies you about:
            posts, comments, announcements and events, each on by default.
          </p>
        ) : (
          <>
            <p className="text-sm text-stone-600">Choose what each of your communities notifies you about.</p>
            {data.communities.map((community) => (
              <CommunitySwitches
                key={community.id}
                community={community}
                disabled={!data.global_enabled}
                onChange={(flag, value) => update.mutate({ community_settings: { [community.id]: { [flag]: value } } })}
              />
            ))}
          </>
        )}
      </section>
    </div>
  );
}

/** One community's four switches, grouped under its name so each switch is named in context. */
function CommunitySwitches({
  community,
  disabled,
  onChange,
}: {
  community: NotificationSettings["communities"][number];
  disabled: boolean;
  onChange: (flag: CommunityFlag, value: boolean) => void;
}) {
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId} className="rounded-xl border border-stone-200">
      <div className="flex items-center gap-2.5 border-b border-stone-200 px-4 py-2.5">
        <CommunityIcon src={community.icon_url} name={community.name} size="sm" />
        <h4 id={headingId} className="min-w-0 truncate text-sm font-semibold text-stone-900">
          {community.name}
        </h4>
      </div>
      <div className="divide-y divide-stone-200 px-4">
        {COMMUNITY_FLAGS.map((flag) => (
          <SwitchRow
            key={flag}
            label={COMMUNITY_FLAG_LABELS[flag].label}
            description={COMMUNITY_FLAG_LABELS[flag].description}
            checked={!disabled && community.flags[flag]}
            disabled={disabled}
            onCheckedChange={(value) => onChange(flag, value)}
          />
        ))}
      </div>
    </div>
  );
}
