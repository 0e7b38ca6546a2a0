import type { ReactNode } from "react";
import { COMMUNITY_ROLES, ROLE_LABELS } from "#shared/roles";
import type { CommunityView } from "#web/features/communities";
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

/** A table of figures: its caption for screen readers, its column headings, its rows. */
function FigureTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly { label: string; className?: string }[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-xs">
      <table className="w-full text-sm [&_td]:px-4 [&_td]:py-2.5 [&_th]:px-4 [&_th]:py-2.5 [&_th]:text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">{children}</tbody>
      </table>
    </div>
  );
}

/** Every figure in full: activity, growth, and members by role. */
export function MetricsTab({ community }: { community: CommunityView }) {
  return (
    <PanelBody>
      <PanelHeader title="Metrics" description="The full picture of your community's members and activity." />
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
