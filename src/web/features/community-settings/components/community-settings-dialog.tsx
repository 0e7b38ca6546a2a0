import * as DialogPrimitive from "@radix-ui/react-dialog";
import * as TabsPrimitive from "@radix-ui/react-tabs";
import {
  ChartColumn,
  CircleDollarSign,
  Compass,
  DoorOpen,
  LayoutDashboard,
  Medal,
  PanelsTopLeft,
  ScrollText,
  Settings2,
  ShieldAlert,
  Tags,
  UserPlus,
  Wallet,
  X,
} from "lucide-react";
import {
  type ComponentType,
  type ReactNode,
  useCallback,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import type { Permission } from "#shared/roles";
import { overlayClasses } from "#web/components/ui/dialog";
import { DiscardChangesDialog } from "#web/components/ui/discard-changes-dialog";
import { FormMessage } from "#web/components/ui/form-message";
import { cn } from "#web/lib/cn";
import { CommunityIcon, type CommunityView } from "#web/features/communities";
import { CategoriesTab } from "./categories-tab";
import { DashboardTab } from "./dashboard-tab";
import { DiscoveryTab } from "./discovery-tab";
import { GeneralTab } from "./general-tab";
import { InviteTab } from "./invite-tab";
import { LevelsTab } from "./levels-tab";
import { MembershipTab } from "./membership-tab";
import { MetricsTab } from "./metrics-tab";
import { ModerationTab } from "./moderation-tab";
import { PageTabsTab } from "./page-tabs-tab";
import { PayoutsTab } from "./payouts-tab";
import { PricingTab } from "./pricing-tab";
import { RulesTab } from "./rules-tab";
import type { CommunitySettingsSection, SettingsTabProps } from "./settings-panel";

export type CommunitySettingsTab =
  | "dashboard"
  | "invite"
  | "membership"
  | "general"
  | "pricing"
  | "payouts"
  | "tabs"
  | "categories"
  | "levels"
  | "rules"
  | "moderation"
  | "discovery"
  | "metrics";

type TabDefinition = {
  id: CommunitySettingsTab;
  label: string;
  icon: ComponentType<{ className?: string }>;
  needs: Permission;
  render: (props: SettingsTabProps) => ReactNode;
};

/** The fuller variant of SPEC §2, without affiliates, plugins and billing (nothing real behind them). */
const TABS: readonly TabDefinition[] = [
  {
    id: "dashboard",
    label: "Dashboard",
    icon: LayoutDashboard,
    needs: "view_analytics",
    render: (p) => <DashboardTab {...p} />,
  },
  { id: "invite", label: "Invite", icon: UserPlus, needs: "invite_members", render: (p) => <InviteTab {...p} /> },
  {
    id: "membership",
    label: "Membership",
    icon: DoorOpen,
    needs: "manage_settings",
    render: (p) => <MembershipTab {...p} />,
  },
  { id: "general", label: "General", icon: Settings2, needs: "edit_community", render: (p) => <GeneralTab {...p} /> },
  {
    id: "pricing",
    label: "Pricing",
    icon: CircleDollarSign,
    needs: "manage_settings",
    render: (p) => <PricingTab {...p} />,
  },
  { id: "payouts", label: "Payouts", icon: Wallet, needs: "view_revenue", render: (p) => <PayoutsTab {...p} /> },
  { id: "tabs", label: "Tabs", icon: PanelsTopLeft, needs: "manage_settings", render: (p) => <PageTabsTab {...p} /> },
  {
    id: "categories",
    label: "Categories",
    icon: Tags,
    needs: "manage_settings",
    render: (p) => <CategoriesTab {...p} />,
  },
  { id: "levels", label: "Levels", icon: Medal, needs: "manage_settings", render: (p) => <LevelsTab {...p} /> },
  { id: "rules", label: "Rules", icon: ScrollText, needs: "manage_settings", render: (p) => <RulesTab {...p} /> },
  {
    id: "moderation",
    label: "Moderation",
    icon: ShieldAlert,
    needs: "manage_settings",
    render: (p) => <ModerationTab {...p} />,
  },
  {
    id: "discovery",
    label: "Discovery",
    icon: Compass,
    needs: "manage_settings",
    render: (p) => <DiscoveryTab {...p} />,
  },
  { id: "metrics", label: "Metrics", icon: ChartColumn, needs: "view_analytics", render: (p) => <MetricsTab {...p} /> },
];

const WIDE = "(min-width: 768px)";
const subscribeWide = (onChange: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};
/** Side nav on wide screens (arrow keys up/down), a scrolling strip on narrow ones (left/right). */
const useWide = () =>
  useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );

/**
 * Community settings (owner; admin where SPEC §6 allows). Each tab saves its own fields; closing
 * with unsaved changes in any tab asks first.
 */
export function CommunitySettingsDialog({
  community,
  open,
  onOpenChange,
  initialTab = "dashboard",
  initialSection,
}: {
  community: CommunityView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialTab?: CommunitySettingsTab;
  /** With initialTab "general": open with the icon and cover in view. */
  initialSection?: CommunitySettingsSection;
}) {
  const permissions = community.viewer.permissions;
  const tabs = useMemo(() => TABS.filter((t) => permissions.includes(t.needs)), [permissions]);
  const firstTab = tabs.some((t) => t.id === initialTab) ? initialTab : (tabs[0]?.id ?? initialTab);
  const [tab, setTab] = useState<CommunitySettingsTab>(firstTab);
  const [dirty, setDirty] = useState<Partial<Record<CommunitySettingsTab, boolean>>>({});
  const [confirming, setConfirming] = useState(false);
  const [shownOpen, setShownOpen] = useState(open);
  const scroller = useRef<HTMLDivElement>(null);
  const wide = useWide();

  // Each opening starts on the tab asked for, with nothing unsaved.
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) {
      setTab(firstTab);
      setDirty({});
    }
  }

  const reportDirty = useMemo(() => {
    const entries = TABS.map(
      (t) =>
        [
          t.id,
          (value: boolean) => setDirty((d) => (Boolean(d[t.id]) === value ? d : { ...d, [t.id]: value })),
        ] as const,
    );
    return Object.fromEntries(entries) as Record<CommunitySettingsTab, (dirty: boolean) => void>;
  }, []);

  const anyDirty = Object.values(dirty).some(Boolean);
  const requestOpenChange = useCallback(
    (next: boolean) => {
      if (next) return onOpenChange(true);
      if (anyDirty) setConfirming(true);
      else onOpenChange(false);
    },
    [anyDirty, onOpenChange],
  );

  const selectTab = (value: string) => {
    setTab(value as CommunitySettingsTab);
    scroller.current?.scrollTo({ top: 0 });
  };

  return (
    <>
      <DialogPrimitive.Root open={open} onOpenChange={requestOpenChange}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className={overlayClasses} />
          <DialogPrimitive.Content
            className={cn(
              "fixed top-1/2 left-1/2 z-50 flex -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden",
              "h-[calc(100dvh-1rem)] w-[calc(100vw-1rem)] max-w-5xl md:h-[min(48rem,calc(100dvh-3rem))] md:w-[calc(100vw-3rem)]",
              "rounded-2xl bg-white shadow-2xl ring-1 ring-stone-900/5 focus:outline-none data-[state=open]:animate-dialog-in",
            )}
          >
            <div className="flex shrink-0 items-center gap-3 border-b border-stone-200 px-4 py-3.5 pr-14 sm:px-6">
              <CommunityIcon src={community.icon_url} name={community.name} size="sm" />
              <div className="min-w-0">
                <DialogPrimitive.Title className="text-lg leading-tight font-bold tracking-tight text-stone-900">
                  Community settings
                </DialogPrimitive.Title>
                <DialogPrimitive.Description className="truncate text-sm text-stone-600">
                  {community.name}
                </DialogPrimitive.Description>
              </div>
            </div>

            {tabs.length === 0 ? (
              <div className="p-6">
                <FormMessage tone="info">Only the community's owner and admins can change its settings.</FormMessage>
              </div>
            ) : (
              <TabsPrimitive.Root
                value={tab}
                onValueChange={selectTab}
                orientation={wide ? "vertical" : "horizontal"}
                className="flex min-h-0 flex-1 flex-col md:flex-row"
              >
                <TabsPrimitive.List
                  aria-label="Settings sections"
                  className={cn(
                    "flex shrink-0 gap-1 overflow-x-auto border-b border-stone-200 px-3 py-2 [scrollbar-width:none]",
                    "md:w-52 md:flex-col md:gap-0.5 md:overflow-x-visible md:overflow-y-auto md:border-r md:border-b-0 md:bg-stone-50/80 md:p-3",
                  )}
                >
                  {tabs.map(({ id, label, icon: Icon }) => (
                    <TabsPrimitive.Trigger
                      key={id}
                      value={id}
                      className={cn(
                        "group relative flex shrink-0 cursor-pointer items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-stone-700 transition-colors",
                        "hover:bg-stone-100 hover:text-stone-900",
                        "data-[state=active]:bg-brand-50 data-[state=active]:text-brand-900 md:data-[state=active]:bg-white md:data-[state=active]:shadow-xs md:data-[state=active]:ring-1 md:data-[state=active]:ring-stone-200",
                        "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700",
                      )}
                    >
                      <Icon
                        className="size-4 text-stone-500 group-data-[state=active]:text-brand-700"
                        aria-hidden="true"
                      />
                      {label}
                      {dirty[id] && (
                        <>
                          <span className="size-1.5 rounded-full bg-brand-600 md:ml-auto" aria-hidden="true" />
                          <span className="sr-only">(unsaved changes)</span>
                        </>
                      )}
                    </TabsPrimitive.Trigger>
                  ))}
                </TabsPrimitive.List>
                <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto bg-stone-50/40">
                  {tabs.map((t) => (
                    // Panels stay mounted so switching tabs keeps what was typed.
                    <TabsPrimitive.Content
                      key={t.id}
                      value={t.id}
                      forceMount
                      className="min-h-full focus-visible:outline-none data-[state=inactive]:hidden [&>*]:min-h-full"
                    >
                      {t.render({
                        community,
                        onDirtyChange: reportDirty[t.id],
                        section: t.id === firstTab ? initialSection : undefined,
                      })}
                    </TabsPrimitive.Content>
                  ))}
                </div>
              </TabsPrimitive.Root>
            )}

            <DialogPrimitive.Close
              className="absolute top-3.5 right-3.5 flex size-9 cursor-pointer items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-800"
              aria-label="Close"
            >
              <X className="size-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
      <DiscardChangesDialog
        open={confirming}
        onOpenChange={setConfirming}
        description="Some settings are not saved yet. If you close now, they will be lost."
        onDiscard={() => onOpenChange(false)}
      />
    </>
  );
}
