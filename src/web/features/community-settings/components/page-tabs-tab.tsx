import { Controller } from "react-hook-form";
import { SwitchRow } from "#web/components/ui/switch";
import { dirtyValues } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { SettingsForm, type SettingsTabProps } from "./settings-panel";
import { useCommunitySettingsForm } from "./use-community-settings-form";

const PAGE_TABS = [
  { name: "show_classroom", label: "Classroom", description: "Courses with modules and video lessons." },
  { name: "show_calendar", label: "Calendar", description: "Events and live sessions." },
  { name: "show_map", label: "Map", description: "Where your members are in the world." },
  { name: "show_leaderboards", label: "Leaderboards", description: "The most active members." },
  { name: "show_about", label: "About", description: "Your description, rules and the creator." },
] as const;

type PageTabsInput = Record<(typeof PAGE_TABS)[number]["name"], boolean>;

const toValues = (c: CommunityView): PageTabsInput => ({
  show_classroom: c.show_classroom,
  show_calendar: c.show_calendar,
  show_map: c.show_map,
  show_leaderboards: c.show_leaderboards,
  show_about: c.show_about,
});

/** Which tabs members see on the community page. */
export function PageTabsTab({ community, onDirtyChange }: SettingsTabProps) {
  const { control, ...settings } = useCommunitySettingsForm(community, {
    toValues,
    changes: dirtyValues<PageTabsInput>,
    savedMessage: "Tabs saved.",
    onDirtyChange,
  });

  return (
    <SettingsForm
      settings={settings}
      title="Tabs"
      description="Choose the tabs members see on your community page. Community and Members are always there."
    >
      <div className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white px-4">
        {PAGE_TABS.map((tab) => (
          <Controller
            key={tab.name}
            control={control}
            name={tab.name}
            render={({ field }) => (
              <SwitchRow
                label={tab.label}
                description={tab.description}
                checked={field.value}
                onCheckedChange={field.onChange}
              />
            )}
          />
        ))}
      </div>
    </SettingsForm>
  );
}
