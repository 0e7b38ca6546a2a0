import { COMMUNITY_ROLES, ROLE_LABELS } from "#shared/roles";
import type { CommunityView } from "#web/features/communities";
import { FigureTable } from "./figure-table";
import { RevenueSection } from "./revenue-section";
import { PanelBody, PanelHeader, PanelSection } from "./settings-panel";
import { JoinsChart, StatsGate } from "./stats-view";

const number = new Intl.NumberFormat();

const skeleton = (
  <div className="space-y-3">
    {Array.from({ length: 3 }, (_, i) => (
      <div key={i} className="h-40 animate-pulse rounded-xl bg-stone-200/70" />
    ))}
  </div>
);

/** Every figure in full: activity, growth, members by role and, for the owner, revenue. */
export function MetricsTab({ community }: { community: CommunityView }) {
  const seesRevenue = community.viewer.permissions.includes("view_revenue");
  return (
    <PanelBody>
      <PanelHeader title="Metrics" description="The full picture of your community's members and activity." />
      {seesRevenue && <RevenueSection communityId={community.id} />}
      <StatsGate communityId={community.id} skeleton={skeleton}>
        {(stats) => {
          const rows: [string, number, string?][] = [
            ["Total members", stats.total_members],
            ["New members (7 days)", stats.new_members_7d],
            ["New members (30 days)", stats.new_members_30d],
            ["Joined through invites", stats.joined_via_invite, "Members who came with your invite link"],
            ["Active today", stats.active_today, "Members seen in the last 24 hours"],
            ["Online now", stats.online_now, "Members seen in the last 5 minutes"],
            ["Published posts", stats.total_posts],
            ["Posts (7 days)", stats.posts_7d],
            ["Pending posts", stats.pending_posts, "Waiting for approval"],
          ];
          const roleTotal = Math.max(
            1,
            COMMUNITY_ROLES.reduce((sum, role) => sum + (stats.roles[role] ?? 0), 0),
          );
          return (
            <div className="space-y-7">
              <PanelSection title="Activity and growth">
                <FigureTable
                  caption="Community figures"
                  columns={[{ label: "Figure" }, { label: "Value", className: "!text-right" }]}
                >
                  {rows.map(([label, value, note]) => (
                    <tr key={label}>
                      <th scope="row" className="font-medium text-stone-800">
                        {label}
                        {note && <span className="block text-xs font-normal text-stone-500">{note}</span>}
                      </th>
                      <td className="text-right font-semibold text-stone-900 tabular-nums">{number.format(value)}</td>
                    </tr>
                  ))}
                </FigureTable>
              </PanelSection>

              <PanelSection title="Members by role">
                <FigureTable
                  caption="Members by role"
                  columns={[
                    { label: "Role" },
                    { label: "Share", className: "w-1/2 max-sm:hidden" },
                    { label: "Members", className: "!text-right" },
                  ]}
                >
                  {COMMUNITY_ROLES.map((role) => {
                    const count = stats.roles[role] ?? 0;
                    const share = Math.round((count / roleTotal) * 100);
                    return (
                      <tr key={role}>
                        <th scope="row" className="font-medium text-stone-800">
                          {ROLE_LABELS[role]}
                        </th>
                        <td className="max-sm:hidden">
                          <div className="flex items-center gap-2">
                            <div className="h-2 flex-1 overflow-hidden rounded-full bg-stone-100">
                              <div className="h-full rounded-full bg-brand-600" style={{ width: `${share}%` }} />
                            </div>
                            <span className="w-9 text-right text-xs text-stone-600 tabular-nums">{share}%</span>
                          </div>
                        </td>
                        <td className="text-right font-semibold text-stone-900 tabular-nums">{number.format(count)}</td>
                      </tr>
                    );
                  })}
                </FigureTable>
              </PanelSection>

              <JoinsChart days={stats.joins_by_day} />
            </div>
          );
        }}
      </StatsGate>
    </PanelBody>
  );
}
