import { lazyPart } from "#web/lib/lazy-part";
import {
  BookOpen,
  CalendarDays,
  Info,
  type LucideIcon,
  Map as MapIcon,
  MessagesSquare,
  ShieldCheck,
  Trophy,
  Users,
} from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import type { CommunitySettingsTab } from "#web/features/community-settings";
import { formatCount } from "#shared/format";
import { can } from "#shared/roles";
import { Spinner } from "#web/components/ui/spinner";
import { TabBar, tabPanelProps } from "#web/components/ui/tab-bar";
import { type CommunityView, CommunityIcon } from "#web/features/communities";
import { RoleBadge } from "#web/features/members";
import { CommunityTab } from "./tabs/community-tab";
import { Bone } from "#web/components/ui/load-states";
import { useIdle } from "#web/lib/use-idle";

// The Community tab (the feed) comes with the page; every other tab loads when it is first opened.
const AboutTab = lazyPart("AboutTab", () => import("./tabs/about-tab").then((m) => ({ default: m.AboutTab })));
const AdminTab = lazyPart("AdminTab", () => import("./tabs/admin-tab").then((m) => ({ default: m.AdminTab })));
const CoursesTab = lazyPart("CoursesTab", () => import("./tabs/courses-tab").then((m) => ({ default: m.CoursesTab })));
const CalendarTab = lazyPart("CalendarTab", () =>
  import("#web/features/calendar/components/calendar-tab").then((m) => ({ default: m.CalendarTab })),
);
const MapTab = lazyPart("MapTab", () => import("./tabs/map-tab").then((m) => ({ default: m.MapTab })));
const MembersTab = lazyPart("MembersTab", () =>
  import("#web/features/members/components/members-tab").then((m) => ({ default: m.MembersTab })),
);
const LeaderboardsTab = lazyPart("LeaderboardsTab", () =>
  import("#web/features/leaderboards/components/leaderboards-tab").then((m) => ({ default: m.LeaderboardsTab })),
);

// The side card comes just after the feed's code (the first JavaScript is at its budget, decision 0009),
// holding its place meanwhile.
const CommunitySidebar = lazyPart("CommunitySidebar", () =>
  import("./community-sidebar").then((m) => ({ default: m.CommunitySidebar })),
);
const sidebarBone = (
  <div className="lg:sticky lg:top-24 lg:self-start" aria-hidden="true">
    <div className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200">
      <Bone className="aspect-[1084/576] bg-stone-100" />
      <div className="space-y-3 p-5">
        <Bone className="h-5 w-2/3 rounded bg-stone-100" />
        <Bone className="h-4 w-full rounded bg-stone-100" />
        <Bone className="h-10 w-full rounded-xl bg-stone-100" />
      </div>
    </div>
  </div>
);

// The search box loads once the page is idle; results (?q=) take the tab's place and load with the first search.
const SearchField = lazyPart("SearchField", () =>
  import("#web/features/search/components/search-field").then((m) => ({ default: m.CommunitySearchField })),
);
const SearchResults = lazyPart("SearchResults", () =>
  import("#web/features/search/components/search-results").then((m) => ({ default: m.SearchResults })),
);

// The settings dialog is large and only for owners and admins: its code loads on first opening.
const CommunitySettingsDialog = lazy(() =>
  import("#web/features/community-settings").then((m) => ({ default: m.CommunitySettingsDialog })),
);

export type HomeTab = "community" | "courses" | "calendar" | "members" | "map" | "leaderboards" | "about" | "admin";

type TabDefinition = { id: HomeTab; label: string; icon: LucideIcon; shown: (c: CommunityView) => boolean };

/** SPEC §2 tab order; each optional tab follows the community's show_* setting, Admin for owner, admin and moderator. */
const TABS: readonly TabDefinition[] = [
  { id: "community", label: "Community", icon: MessagesSquare, shown: () => true },
  { id: "courses", label: "Courses", icon: BookOpen, shown: (c) => c.show_classroom },
  { id: "calendar", label: "Calendar", icon: CalendarDays, shown: (c) => c.show_calendar && c.viewer.role != null },
  { id: "members", label: "Members", icon: Users, shown: () => true },
  { id: "map", label: "Map", icon: MapIcon, shown: (c) => c.show_map },
  { id: "leaderboards", label: "Leaderboards", icon: Trophy, shown: (c) => c.show_leaderboards },
  { id: "about", label: "About", icon: Info, shown: (c) => c.show_about },
  // Moderators see it for the reports queue only.
  { id: "admin", label: "Admin", icon: ShieldCheck, shown: (c) => can(c.viewer.role, "moderate_posts") },
];

/** The selected tab lives in the URL (?tab=members), so it survives a reload and can be linked to. */
export function useHomeTab(community: CommunityView) {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabs = TABS.filter((t) => t.shown(community));
  // An event's address (?event=<id>, from notifications and calendar files) opens the Calendar.
  const requested = searchParams.get("tab") ?? (searchParams.has("event") ? "calendar" : null);
  const current = tabs.find((t) => t.id === requested)?.id ?? "community";
  const select = useCallback(
    (tab: string) =>
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (tab === "community") next.delete("tab");
          else next.set("tab", tab);
          next.delete("q");
          return next;
        },
        { preventScrollReset: true },
      ),
    [setSearchParams],
  );
  return { tabs, current, select, searching: !!searchParams.get("q")?.trim() };
}

/** What a member sees: the tabs, the selected tab's content, and the sidebar card. */
export function CommunityHome({ community: c }: { community: CommunityView }) {
  const { tabs, current, select, searching } = useHomeTab(c);
  const idle = useIdle();
  // ?settings=payouts (Stripe's onboarding comes back there) opens the settings on that tab.
  const [searchParams] = useSearchParams();
  const [settingsTab] = useState(() => searchParams.get("settings"));
  const [settingsOpen, setSettingsOpen] = useState(!!settingsTab);
  const [settingsUsed, setSettingsUsed] = useState(!!settingsTab);
  const label = tabs.find((t) => t.id === current)?.label ?? "Community";
  const tabList = useRef<HTMLDivElement>(null);
  const tabsId = useId();
  // On a narrow screen the tab strip scrolls sideways: keep the selected tab in sight.
  useEffect(() => {
    tabList.current
      ?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [current]);

  return (
    <main id="main">
      <title>{current === "community" ? `${c.name} · Hearth` : `${label} · ${c.name} · Hearth`}</title>
      <div>
        <div className="border-b border-stone-200 bg-white">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="flex flex-wrap items-center gap-3 pt-5 pb-3">
              <CommunityIcon src={c.icon_url} name={c.name} size="md" />
              <div className="min-w-0">
                <h1 className="truncate text-xl font-bold tracking-tight text-stone-900 sm:text-2xl">{c.name}</h1>
                {c.tagline && <p className="truncate text-sm text-stone-600">{c.tagline}</p>}
                {/* The side card sits below the content on small screens: its key facts show here too. */}
                <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-sm text-stone-600 lg:hidden">
                  <span>
                    {formatCount(c.member_count)} {c.member_count === 1 ? "member" : "members"}
                  </span>
                  <span aria-hidden="true">·</span>
                  <span className="inline-flex items-center gap-1">
                    <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
                    {formatCount(c.online_count)} online
                  </span>
                  {c.viewer.role && (
                    <>
                      <span aria-hidden="true">·</span>
                      <span className="sr-only">Your role:</span>
                      <RoleBadge role={c.viewer.role} />
                    </>
                  )}
                </p>
              </div>
              <Suspense fallback={searchBone}>
                {idle ? <SearchField className="w-full sm:ml-auto sm:w-72" /> : searchBone}
              </Suspense>
            </div>
            <TabBar
              id={tabsId}
              ref={tabList}
              label="Community sections"
              className="-mx-2.5 flex gap-1 overflow-x-auto [scrollbar-width:none] sm:-mx-3"
              items={tabs.map(({ id, label, icon: Icon }) => ({
                id,
                label: (
                  <>
                    <Icon className="size-4" aria-hidden="true" />
                    {label}
                  </>
                ),
              }))}
              current={current}
              onSelect={select}
            />
          </div>
        </div>

        <div className="mx-auto grid max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-8">
          <div className="min-w-0">
            {/* Only the selected tab is mounted: each loads its own data when opened. */}
            <div {...tabPanelProps(tabsId, current)} className="focus-visible:outline-none">
              <Suspense fallback={<Spinner label="Loading the tab" className="flex justify-center py-12" />}>
                {searching ? (
                  <SearchResults scope={{ communityId: c.id }} categories={c.post_categories} clearable />
                ) : (
                  <>
                    {current === "community" && <CommunityTab community={c} />}
                    {current === "courses" && <CoursesTab community={c} />}
                    {current === "calendar" && <CalendarTab community={c} />}
                    {current === "members" && <MembersTab community={c} />}
                    {current === "map" && <MapTab />}
                    {current === "leaderboards" && <LeaderboardsTab community={c} />}
                    {current === "about" && <AboutTab community={c} />}
                    {current === "admin" && <AdminTab community={c} onSelectTab={select} />}
                  </>
                )}
              </Suspense>
            </div>
          </div>
          <Suspense fallback={sidebarBone}>
            <CommunitySidebar
              community={c}
              onOpenSettings={() => {
                setSettingsUsed(true);
                setSettingsOpen(true);
              }}
              onSelectTab={select}
              showAboutLink={c.show_about && current !== "about"}
            />
          </Suspense>
        </div>
      </div>
      {settingsUsed && can(c.viewer.role, "manage_settings") && (
        <Suspense fallback={null}>
          <CommunitySettingsDialog
            community={c}
            open={settingsOpen}
            onOpenChange={setSettingsOpen}
            initialTab={(settingsTab ?? undefined) as CommunitySettingsTab | undefined}
          />
        </Suspense>
      )}
    </main>
  );
}

const searchBone = <Bone className="h-10 w-full rounded-xl bg-stone-100 sm:ml-auto sm:w-72" />;
