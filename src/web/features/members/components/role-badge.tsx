import { Crown, Shield, ShieldCheck, User, UserRound } from "lucide-react";
import { type CommunityRole, ROLE_LABELS } from "#shared/roles";
import { cn } from "#web/lib/cn";

const STYLES: Record<CommunityRole, { className: string; icon: typeof Crown }> = {
  owner: { className: "bg-amber-100 text-amber-900 ring-amber-200", icon: Crown },
  admin: { className: "bg-brand-100 text-brand-900 ring-brand-200", icon: ShieldCheck },
  moderator: { className: "bg-sky-100 text-sky-900 ring-sky-200", icon: Shield },
  member: { className: "bg-stone-100 text-stone-800 ring-stone-200", icon: UserRound },
  guest: { className: "bg-white text-stone-700 ring-stone-200", icon: User },
};

/** A role as a small labelled pill (ROLE_LABELS). */
export function RoleBadge({ role, className }: { role: CommunityRole; className?: string }) {
  const { className: tone, icon: Icon } = STYLES[role];
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1",
        tone,
        className,
      )}
    >
      <Icon className="size-3" aria-hidden="true" />
      {ROLE_LABELS[role]}
    </span>
  );
}
