import { Check, ClipboardList, Copy, Crown, Info, Link2, LogOut, Settings } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { Suspense, useState } from "react";
import { Link } from "react-router";
import { toast } from "#web/lib/toast";
import { ONBOARDING_TASKS } from "#shared/communities";
import { can, isRole } from "#shared/roles";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button, buttonClasses } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { inviteUrl } from "#web/lib/invite-url";
import { type CommunityView, CommunityIcon, CoverImage } from "#web/features/communities";
import { CommunityFigures } from "./community-figures";
import type { HomeTab } from "./community-home";
import { RoleBadge } from "#web/features/members";
import { useLeaveAction } from "#web/features/members";

// The calendar's card loads after the page: it is small, but the page's first JavaScript is not.
const UpNextCard = lazyPart("UpNextCard", () =>
  import("#web/features/calendar/components/up-next-card").then((m) => ({ default: m.UpNextCard })),
);

/** The member home's side card (SPEC §2): who the community is, your place in it, and shortcuts. */
export function CommunitySidebar({
  community: c,
  onOpenSettings,
  onSelectTab,
  showAboutLink,
}: {
  community: CommunityView;
  onOpenSettings: () => void;
  onSelectTab: (tab: HomeTab) => void;
  showAboutLink: boolean;
}) {
  const role = c.viewer.role;
  const leave = useLeaveAction(c);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const cover = c.cover_url || c.image_url;
  const mayInvite = can(role, "invite_members") && c.invite_enabled && Boolean(c.invite_code);
  const showSetup = can(role, "manage_settings") && !c.onboarding_completed;

  return (
    <aside aria-label={`About ${c.name}`} className="lg:sticky lg:top-24 lg:self-start">
      <div className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200">
        <div className="relative aspect-[1084/576] bg-gradient-to-br from-brand-300 via-amber-200 to-rose-200">
          {cover && <CoverImage src={cover} />}
        </div>
        <div className="p-5">
          <div className="-mt-11 flex items-end gap-3">
            <CommunityIcon src={c.icon_url} name={c.name} size="lg" className="shadow-md ring-4 ring-white" />
          </div>
          <p className="mt-3 text-lg font-bold tracking-tight text-stone-900">{c.name}</p>
          {c.tagline && <p className="mt-0.5 text-sm text-stone-600">{c.tagline}</p>}
          <p className="mt-1 truncate text-sm text-stone-600">hearth/{c.custom_slug || c.slug}</p>

          <CommunityFigures community={c} className="mt-4" />

          {isRole(role) && (
            <p className="mt-4 flex items-center justify-between gap-3 text-sm text-stone-700">
              <span>Your role</span>
              <RoleBadge role={role} />
            </p>
          )}

          {c.type === "paid" && (
            <div className="mt-4 flex gap-3 rounded-2xl bg-gradient-to-br from-amber-50 to-brand-50 p-3.5 ring-1 ring-amber-200/70">
              <Crown className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
              <div className="text-sm">
                <p className="font-semibold text-stone-900">Premium Community</p>
                <Link to="/billing" className="text-stone-700 underline hover:text-stone-900">
                  Your plan and billing
                </Link>
              </div>
            </div>
          )}

          <div className="mt-5 space-y-2">
            {can(role, "manage_settings") && (
              <Button className="w-full tracking-wide" onClick={onOpenSettings}>
                <Settings className="size-4" aria-hidden="true" />
                SETTINGS
              </Button>
            )}
            {/* Offered only where leaving is possible: not to the only owner (SPEC §2, §4). */}
            {c.viewer.may_leave && (
              <Button
                variant="secondary"
                className="w-full"
                onClick={() => setConfirmLeave(true)}
                loading={leave.pending}
              >
                {!leave.pending && <LogOut className="size-4" aria-hidden="true" />}
                Leave Community
              </Button>
            )}
          </div>
        </div>

        {(mayInvite || showSetup || showAboutLink) && (
          <nav aria-label="Quick links" className="border-t border-stone-100 bg-stone-50/60 p-3">
            <ul className="space-y-0.5">
              {mayInvite && c.invite_code && (
                <li>
                  <CopyInviteLink code={c.invite_code} />
                </li>
              )}
              {showSetup && (
                <li>
                  <Link to={`/community/${encodeURIComponent(c.slug)}/setup`} className={quickLinkClasses}>
                    <ClipboardList className="size-4 text-stone-500" aria-hidden="true" />
                    Setup checklist
                    <span className="ml-auto rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">
                      {c.onboarding_tasks_completed.length}/{ONBOARDING_TASKS.length}
                    </span>
                  </Link>
                </li>
              )}
              {showAboutLink && (
                <li>
                  <button type="button" className={quickLinkClasses} onClick={() => onSelectTab("about")}>
                    <Info className="size-4 text-stone-500" aria-hidden="true" />
                    About
                  </button>
                </li>
              )}
            </ul>
          </nav>
        )}
      </div>

      {c.show_calendar && role != null && (
        <Suspense fallback={null}>
          <UpNextCard communityId={c.id} communitySlug={c.slug} />
        </Suspense>
      )}

      <ConfirmDialog
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title={`Leave ${c.name}?`}
        description={
          c.type === "paid"
            ? "You will lose access to the members' feed and courses. You can join again later."
            : "You will no longer see members-only posts here. You can join again any time."
        }
        confirmLabel="Leave Community"
        destructive
        onConfirm={leave.run}
      />
    </aside>
  );
}

const quickLinkClasses = cn(
  "flex w-full cursor-pointer items-center gap-2.5 rounded-xl px-3 py-2.5 text-left text-sm font-medium text-stone-800 transition-colors",
  "hover:bg-white hover:shadow-sm",
);

/** Copies `${origin}/invite/{code}`; where the clipboard is unavailable the link is shown to copy by hand. */
function CopyInviteLink({ code }: { code: string }) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(inviteUrl(code));
      setState("copied");
      toast.success("Link copied to clipboard!");
      window.setTimeout(() => setState("idle"), 3000);
    } catch {
      setState("manual");
    }
  };
  return (
    <>
      <button type="button" className={quickLinkClasses} onClick={() => void copy()}>
        {state === "copied" ? (
          <Check className="size-4 text-emerald-700" aria-hidden="true" />
        ) : (
          <Link2 className="size-4 text-stone-500" aria-hidden="true" />
        )}
        {state === "copied" ? "Invite link copied" : "Copy invite link"}
        <Copy className="ml-auto size-3.5 text-stone-400" aria-hidden="true" />
      </button>
      {state === "manual" && (
        <div className="px-3 pb-2">
          <label className="block text-xs text-stone-600" htmlFor="invite-link-manual">
            Copy this link to invite people:
          </label>
          <input
            id="invite-link-manual"
            readOnly
            value={inviteUrl(code)}
            onFocus={(e) => e.currentTarget.select()}
            className={cn(
              buttonClasses({ variant: "secondary", size: "sm" }),
              "mt-1 w-full cursor-text font-mono text-xs font-normal",
            )}
          />
        </div>
      )}
    </>
  );
}
