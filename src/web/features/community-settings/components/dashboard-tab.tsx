import { Activity, CalendarDays, Hourglass, MessageSquare, Radio, UserPlus, Users } from "lucide-react";
import { formatCount } from "#shared/format";
import { FormMessage } from "#web/components/ui/form-message";
import type { CommunityView } from "#web/features/communities";
import { PanelBody, PanelHeader, StatCard } from "./settings-panel";
import { JoinsChart, StatsGate } from "./stats-view";

const skeleton = (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="h-[92px] animate-pulse rounded-xl bg-stone-200/70" />
      ))}
    </div>
    <div className="h-48 animate-pulse rounded-xl bg-stone-200/70" />
  </div>
);

/** The community at a glance: real figures from /stats. */
export function DashboardTab({ community }: { community: CommunityView }) {
  return (
    <PanelBody>
      <PanelHeader title="Dashboard" description={`How ${community.name} is doing right now.`} />
      <StatsGate communityId={community.id} skeleton={skeleton}>
        {(stats) => (
          <div className="space-y-4">
            {stats.pending_posts > 0 && (
              <FormMessage tone="info">
                <span className="inline-flex items-center gap-1.5">
                  <Hourglass className="size-4" aria-hidden="true" />
                  {stats.pending_posts === 1 ? "1 post is" : `${stats.pending_posts} posts are`} waiting for approval.
                </span>
              </FormMessage>
            )}
            <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
              <StatCard label="Members" icon={<Users />} value={formatCount(stats.total_members)} />
              <StatCard label="Posts" icon={<MessageSquare />} value={formatCount(stats.total_posts)} />
              <StatCard label="Active today" icon={<Activity />} value={formatCount(stats.active_today)} />
              <StatCard label="Online now" icon={<Radio />} value={formatCount(stats.online_now)} />
              <StatCard label="New this week" icon={<UserPlus />} value={`+${stats.new_members_7d}`} hint="7 days" />
              <StatCard
                label="New this month"
                icon={<CalendarDays />}
                value={`+${stats.new_members_30d}`}
                hint="30 days"
              />
            </div>
            <JoinsChart days={stats.joins_by_day} />
          </div>
        )}
      </StatsGate>
    </PanelBody>
  );
}
