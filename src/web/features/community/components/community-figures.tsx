import { formatCount } from "#shared/format";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";

/** Members, Online and Admins: the three figures of the side cards. */
export function CommunityFigures({
  community: c,
  className,
}: {
  community: Pick<CommunityView, "member_count" | "online_count" | "admin_count">;
  className?: string;
}) {
  const figures = [
    { label: c.member_count === 1 ? "Member" : "Members", value: c.member_count, dot: false },
    { label: "Online", value: c.online_count, dot: true },
    { label: c.admin_count === 1 ? "Admin" : "Admins", value: c.admin_count, dot: false },
  ];
  return (
    <dl
      className={cn(
        "grid grid-cols-3 divide-x divide-stone-200 rounded-2xl bg-stone-50 py-3 ring-1 ring-stone-200/70",
        className,
      )}
    >
      {figures.map((f) => (
        <div key={f.label} className="flex flex-col-reverse items-center px-2 text-center">
          <dt className="mt-0.5 inline-flex items-center gap-1.5 text-xs font-medium text-stone-600">
            {f.dot && <span className="size-2 rounded-full bg-emerald-500" aria-hidden="true" />}
            {f.label}
          </dt>
          <dd className="text-lg font-bold text-stone-900 tabular-nums">{formatCount(f.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
