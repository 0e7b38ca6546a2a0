import { lazyPart } from "#web/lib/lazy-part";
import {
  Activity,
  ArrowRight,
  Ban,
  Clock,
  FileText,
  type LucideIcon,
  MailPlus,
  Radio,
  UserPlus,
  Users,
} from "lucide-react";
import { type ReactNode, Suspense } from "react";
import { toast } from "#web/lib/toast";
import { formatCount, timeAgo } from "#shared/format";
import { can, COMMUNITY_ROLES, isManager, isRole } from "#shared/roles";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import { useBans } from "#web/features/members";
import { type CommunityStats, useCommunityStats } from "#web/features/communities";
import { useLiftBan } from "#web/features/members";
import type { HomeTab } from "../community-home";
import { PendingApprovals } from "#web/features/posts";
import { RoleBadge } from "#web/features/members";
import { LoadingRegion } from "#web/components/ui/load-states";
import { JoinRequestsSection } from "#web/features/membership";

// The reports queue loads with the tab's first opening, beside the rest.
const ReportsSection = lazyPart("ReportsSection", () =>
  import("#web/features/reports/components/reports-section").then((m) => ({ default: m.ReportsSection })),
);

/** The reports queue (owners, admins, moderators): its place in the tab while its code loads. */
function Reports({ community: c }: { community: CommunityView }) {
  return (
    <Suspense fallback={<div className="h-40 animate-pulse rounded-3xl bg-stone-200/60" aria-hidden="true" />}>
      <ReportsSection communityId={c.id} mayBan={can(c.viewer.role, "ban_users")} />
    </Suspense>
  );
}

/**
 * Owner and admin: real figures from /stats, reports, pending approvals, member management, bans.
 * Moderators see the reports only.
 */
export function AdminTab(props: { community: CommunityView; onSelectTab: (tab: HomeTab) => void }) {
  if (!isManager(props.community.viewer.role)) return <Reports community={props.community} />;
  return <ManagerAdminTab {...props} />;
}

function ManagerAdminTab({
  community: c,
  onSelectTab,
}: {
  community: CommunityView;
  onSelectTab: (tab: HomeTab) => void;
}) {
  const stats = useCommunityStats(c.id);
  return (
    <div className="space-y-6">
      <section aria-labelledby="admin-analytics">
        <h2 id="admin-analytics" className="text-lg font-bold tracking-tight text-stone-900">
          Analytics
        </h2>
        {stats.isPending ? (
          <LoadingRegion label="Loading analytics" className="mt-4 grid gap-3 sm:grid-cols-3">
            {[0, 1, 2].map((n) => (
              <div key={n} className="h-28 animate-pulse rounded-2xl bg-stone-200/60" />
            ))}
          </LoadingRegion>
        ) : stats.isError ? (
          <FormMessage tone="error" className="mt-4">
            {errorMessage(stats.error, "Failed to load analytics.", ["FORBIDDEN"])}
          </FormMessage>
        ) : (
          <Analytics stats={stats.data} />
        )}
      </section>

      <Reports community={c} />

      {/* Requests waiting, and any left from before the community stopped taking them. */}
      {c.viewer.permissions.includes("invite_members") && <JoinRequestsSection communityId={c.id} />}

      <Panel
        title="Pending approvals"
        id="admin-pending"
        aside={
          stats.data && stats.data.pending_posts > 0 ? (
            <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-900">
              <Clock className="size-3.5" aria-hidden="true" />
              {stats.data.pending_posts} waiting
            </span>
          ) : null
        }
      >
        <PendingApprovals communityId={c.id} moderationEnabled={c.moderation_enabled} />
      </Panel>

      <div className="grid gap-6 md:grid-cols-2">
        <Panel title="Member management" id="admin-members">
          {stats.data && <RoleBreakdown roles={stats.data.roles} />}
          <Button variant="secondary" className="mt-4 w-full" onClick={() => onSelectTab("members")}>
            Manage members and roles
            <ArrowRight className="size-4" aria-hidden="true" />
          </Button>
        </Panel>
        <BansPanel communityId={c.id} />
      </div>
    </div>
  );
}

function Panel({
  id,
  title,
  aside,
  children,
  className,
}: {
  id: string;
  title: string;
  /** Shown at the right of the heading (a count). */
  aside?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn("rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6", className)}
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-bold tracking-tight text-stone-900">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function Analytics({ stats: s }: { stats: CommunityStats }) {
  const primary: { label: string; value: number; icon: LucideIcon }[] = [
    { label: "Total members", value: s.total_members, icon: Users },
    { label: "Total posts", value: s.total_posts, icon: FileText },
    { label: "Active today", value: s.active_today, icon: Activity },
  ];
  const secondary: { label: string; value: number; icon: LucideIcon }[] = [
    { label: "Online now", value: s.online_now, icon: Radio },
    { label: "New members, 7 days", value: s.new_members_7d, icon: UserPlus },
    { label: "New members, 30 days", value: s.new_members_30d, icon: UserPlus },
    { label: "Joined via invite", value: s.joined_via_invite, icon: MailPlus },
    { label: "Posts, 7 days", value: s.posts_7d, icon: FileText },
    { label: "Pending posts", value: s.pending_posts, icon: Clock },
  ];
  return (
    <div className="mt-4 space-y-4">
      <dl className="grid grid-cols-3 gap-2 sm:gap-3">
        {primary.map(({ label, value, icon: Icon }) => (
          <div
            key={label}
            className="flex flex-col-reverse justify-end rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 sm:p-5"
          >
            <dt className="mt-1 flex items-center gap-1.5 text-xs font-medium text-stone-600 sm:gap-2 sm:text-sm">
              <Icon className="size-4 shrink-0 text-brand-700 max-sm:hidden" aria-hidden="true" />
              {label}
            </dt>
            <dd className="text-2xl font-extrabold tracking-tight text-stone-900 tabular-nums sm:text-3xl">
              {formatCount(value)}
            </dd>
          </div>
        ))}
      </dl>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {secondary.map(({ label, value, icon: Icon }) => (
          <div key={label} className="flex flex-col-reverse justify-end rounded-2xl bg-stone-100/70 px-4 py-3">
            <dt className="mt-0.5 flex items-center gap-1.5 text-xs font-medium text-stone-600">
              <Icon className="size-3.5" aria-hidden="true" />
              {label}
            </dt>
            <dd className="text-xl font-bold text-stone-900 tabular-nums">{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      <JoinsChart days={s.joins_by_day} />
    </div>
  );
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** New members per day over the last 30 days, as bars; the numbers are in the text alternative too. */
function JoinsChart({ days }: { days: CommunityStats["joins_by_day"] }) {
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const max = Math.max(1, ...days.map((d) => d.count));
  const best = days.reduce<(typeof days)[number] | null>((a, d) => (a && a.count >= d.count ? a : d), null);
  const summary =
    total === 0
      ? "No new members in the last 30 days."
      : `${total} new ${total === 1 ? "member" : "members"} in the last 30 days; the busiest day was ${
          best ? `${dayFormat.format(new Date(best.day))} with ${best.count}` : "none"
        }.`;
  return (
    <figure className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
      <figcaption className="flex items-baseline justify-between gap-3">
        <span className="text-sm font-semibold text-stone-900">New members per day</span>
        <span className="text-xs text-stone-600">Last 30 days</span>
      </figcaption>
      <p className="sr-only">{summary}</p>
      <div className="mt-4 flex h-28 items-end gap-[3px]" aria-hidden="true">
        {days.map((d) => (
          <div
            key={d.day}
            title={`${dayFormat.format(new Date(d.day))}: ${d.count}`}
            className={cn("flex-1 rounded-t-sm", d.count > 0 ? "bg-brand-500" : "bg-stone-200")}
            style={{ height: `${Math.max(4, (d.count / max) * 100)}%` }}
          />
        ))}
      </div>
      {days.length > 0 && (
        <div className="mt-2 flex justify-between text-xs text-stone-600" aria-hidden="true">
          <span>{dayFormat.format(new Date(days[0].day))}</span>
          <span>{dayFormat.format(new Date(days[days.length - 1].day))}</span>
        </div>
      )}
      {total === 0 && <p className="mt-3 text-sm text-stone-600">No new members in the last 30 days.</p>}
    </figure>
  );
}

function RoleBreakdown({ roles }: { roles: Record<string, number> }) {
  const present = COMMUNITY_ROLES.filter((r) => (roles[r] ?? 0) > 0);
  if (present.length === 0) return null;
  return (
    <ul className="space-y-2">
      {present.map((role) =>
        isRole(role) ? (
          <li key={role} className="flex items-center justify-between text-sm">
            <RoleBadge role={role} />
            <span className="font-semibold text-stone-900 tabular-nums">{formatCount(roles[role] ?? 0)}</span>
          </li>
        ) : null,
      )}
    </ul>
  );
}

function BansPanel({ communityId }: { communityId: string }) {
  const bans = useBans(communityId);
  const lift = useLiftBan(communityId);
  return (
    <Panel title="Banned members" id="admin-bans">
      {bans.isPending ? (
        <div className="h-16 animate-pulse rounded-2xl bg-stone-100" aria-hidden="true" />
      ) : bans.isError ? (
        <FormMessage tone="error">{errorMessage(bans.error, "Failed to load bans.", ["FORBIDDEN"])}</FormMessage>
      ) : bans.data.length === 0 ? (
        <div className="flex items-center gap-3 text-sm text-stone-600">
          <Ban className="size-5 text-stone-400" aria-hidden="true" />
          No one is banned.
        </div>
      ) : (
        <ul className="divide-y divide-stone-100">
          {bans.data.map((b) => {
            const name = b.full_name || b.username || "Former member";
            const lifting = lift.isPending && lift.variables === b.user_id;
            return (
              <li key={b.user_id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                <Avatar src={b.avatar_url} name={name} />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-semibold text-stone-900">{name}</p>
                  <p className="truncate text-sm text-stone-600">
                    Banned <time dateTime={b.created_at}>{timeAgo(b.created_at)}</time>
                    {b.reason && <> · {b.reason}</>}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  loading={lifting}
                  aria-label={`Lift ban for ${name}`}
                  onClick={() =>
                    lift.mutate(b.user_id, {
                      onSuccess: () => toast.success(`${name} can join again.`),
                      onError: (error) => toast.error(errorMessage(error, "Failed to lift the ban.", ["FORBIDDEN"])),
                    })
                  }
                >
                  Lift ban
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
