import { ArrowRight, Check, ImagePlus, PenLine, Settings, Sparkles, UserPlus, Users } from "lucide-react";
import { type ComponentType, type ReactNode, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "#web/lib/toast";
import { ONBOARDING_INVITES_NEEDED, ONBOARDING_TASKS, type OnboardingTask } from "#shared/communities";
import { priceText } from "#shared/money";
import { formatCount } from "#shared/format";
import { Button, buttonClasses } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { CommunityIcon, type CommunityView, CoverImage } from "#web/features/communities";
import {
  CommunitySettingsDialog,
  type CommunitySettingsSection,
  type CommunitySettingsTab,
  InviteLinkField,
} from "#web/features/community-settings";
import { PostComposer } from "#web/features/posts";
import { useInviteJoins } from "../api/get-setup-community";

const TASK_DETAILS: Record<OnboardingTask, { icon: ComponentType<{ className?: string }>; description: string }> = {
  invite: {
    icon: UserPlus,
    description: `Share your invite link. This is done when ${ONBOARDING_INVITES_NEEDED} people have joined through it.`,
  },
  description: {
    icon: PenLine,
    description: "Tell people in a sentence or two what your community is about and who it is for.",
  },
  customization: {
    icon: ImagePlus,
    description: "An icon and a cover picture make your community easy to recognise.",
  },
  first_post: {
    icon: Sparkles,
    description: "Welcome your members and set the tone for the conversations to come.",
  },
};

/** The onboarding checklist (SPEC §3, §4): four tasks in order, each with the action that completes it. */
export function SetupChecklist({ community }: { community: CommunityView }) {
  const [settings, setSettings] = useState<{
    open: boolean;
    tab: CommunitySettingsTab;
    section?: CommunitySettingsSection;
  }>({ open: false, tab: "dashboard" });
  const composer = useRef<HTMLElement>(null);
  const done = new Set(community.onboarding_tasks_completed);
  const doneCount = ONBOARDING_TASKS.filter((t) => done.has(t.id)).length;
  const percent = Math.round((doneCount / ONBOARDING_TASKS.length) * 100);
  const communityPath = `/community/${encodeURIComponent(community.slug)}`;
  const inviteJoins = useInviteJoins(community.id, { live: !done.has("invite") });

  const openSettings = (tab: CommunitySettingsTab, section?: CommunitySettingsSection) =>
    setSettings({ open: true, tab, section });
  const goToComposer = () => {
    composer.current?.scrollIntoView({ behavior: "smooth", block: "start" });
    composer.current?.querySelector("textarea")?.focus({ preventScroll: true });
  };

  const actions: Record<OnboardingTask, { label: string; doneLabel: string; run: () => void; extra?: ReactNode }> = {
    invite: {
      label: "Invite settings",
      doneLabel: "Invite settings",
      run: () => openSettings("invite"),
      extra: community.invite_code ? (
        <div className="mt-3 space-y-2">
          <InviteLinkField code={community.invite_code} disabled={!community.invite_enabled} />
          {!done.has("invite") && inviteJoins.data !== undefined && (
            <InviteProgress joined={Math.min(inviteJoins.data, ONBOARDING_INVITES_NEEDED)} />
          )}
        </div>
      ) : null,
    },
    description: {
      label: "Add description",
      doneLabel: "Edit description",
      run: () => openSettings("general"),
      extra: community.description.trim() ? (
        <p className="mt-2 line-clamp-2 text-sm text-stone-700 italic">"{community.description}"</p>
      ) : null,
    },
    customization: {
      label: "Upload images",
      doneLabel: "Change images",
      run: () => openSettings("general", "images"),
    },
    first_post: {
      label: "Write post",
      doneLabel: "Write another",
      run: goToComposer,
    },
  };

  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-center gap-4">
          <CommunityIcon src={community.icon_url} name={community.name} size="lg" className="shadow-sm" />
          <div className="min-w-0">
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Getting started</p>
            <h1 className="text-2xl font-bold tracking-tight text-balance break-words text-stone-900 sm:text-3xl">
              Set up {community.name}
            </h1>
          </div>
        </div>
        <div className="flex shrink-0 gap-2 max-sm:[&>*]:flex-1">
          <Button variant="secondary" onClick={() => openSettings("dashboard")}>
            <Settings className="size-4" aria-hidden="true" />
            Settings
          </Button>
          <Link to={communityPath} className={buttonClasses({ variant: "primary" })}>
            Go to community
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <section
            aria-labelledby="checklist-title"
            className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200"
          >
            <div className="border-b border-stone-200 px-5 py-5 sm:px-6">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="checklist-title" className="text-lg font-bold text-stone-900">
                  Your checklist
                </h2>
                <p className="text-sm font-medium text-stone-700" id="checklist-progress">
                  <span className="font-bold text-stone-900 tabular-nums">{doneCount}</span> of{" "}
                  {ONBOARDING_TASKS.length} done
                </p>
              </div>
              <p className="mt-1 text-sm text-stone-600">
                Four steps get your community ready for members. When all are done you go straight to your community.
              </p>
              <div
                role="progressbar"
                aria-labelledby="checklist-progress"
                aria-valuemin={0}
                aria-valuemax={ONBOARDING_TASKS.length}
                aria-valuenow={doneCount}
                aria-valuetext={`${doneCount} of ${ONBOARDING_TASKS.length} tasks done`}
                className="mt-4 h-2.5 overflow-hidden rounded-full bg-stone-100"
              >
                <div
                  className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-700 transition-[width] duration-500"
                  style={{ width: `${Math.max(percent, 2)}%` }}
                />
              </div>
            </div>
            <ol className="divide-y divide-stone-100">
              {ONBOARDING_TASKS.map((task, index) => {
                const complete = done.has(task.id);
                const { icon: Icon, description } = TASK_DETAILS[task.id];
                const action = actions[task.id];
                return (
                  <li key={task.id} className={cn("flex gap-4 px-5 py-5 sm:px-6", complete && "bg-emerald-50/40")}>
                    <span
                      className={cn(
                        "mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full",
                        complete ? "bg-emerald-600 text-white" : "bg-brand-50 text-brand-700 ring-1 ring-brand-200",
                      )}
                      aria-hidden="true"
                    >
                      {complete ? <Check className="size-5" strokeWidth={3} /> : <Icon className="size-[18px]" />}
                    </span>
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                        <div className="min-w-0">
                          <h3
                            className={cn(
                              "font-semibold",
                              complete ? "text-stone-600 line-through decoration-stone-400" : "text-stone-900",
                            )}
                          >
                            <span className="sr-only">
                              Step {index + 1}, {complete ? "done" : "to do"}:{" "}
                            </span>
                            {task.label}
                          </h3>
                          <p className="mt-0.5 text-sm text-stone-600">
                            {complete ? <span className="font-medium text-emerald-800">Done. </span> : null}
                            {description}
                          </p>
                        </div>
                        <Button
                          variant={complete ? "ghost" : "soft"}
                          size="sm"
                          onClick={action.run}
                          className="self-start"
                        >
                          {complete ? action.doneLabel : action.label}
                        </Button>
                      </div>
                      {action.extra}
                    </div>
                  </li>
                );
              })}
            </ol>
          </section>

          <section
            ref={composer}
            id="first-post"
            aria-labelledby="first-post-title"
            className="scroll-mt-24 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6"
          >
            <h2 id="first-post-title" className="text-lg font-bold text-stone-900">
              {done.has("first_post") ? "Write another post" : "Write your first post"}
            </h2>
            <p className="mt-1 mb-4 text-sm text-stone-600">
              Say hello, tell members what to expect, and invite them to introduce themselves.
            </p>
            <PostComposer
              communityId={community.id}
              categories={community.post_categories}
              canChooseVisibility
              onPosted={(post) =>
                toast.success(post.is_approved ? "Your post is live." : "Your post is waiting for approval.")
              }
            />
          </section>
        </div>

        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start" aria-label="Preview">
          <CommunityPreview community={community} />
        </aside>
      </div>

      <CommunitySettingsDialog
        community={community}
        open={settings.open}
        onOpenChange={(open) => setSettings((s) => ({ ...s, open }))}
        initialTab={settings.tab}
        initialSection={settings.section}
      />
    </main>
  );
}

function InviteProgress({ joined }: { joined: number }) {
  return (
    <p className="flex items-center gap-2 text-sm text-stone-700">
      <span className="flex gap-1" aria-hidden="true">
        {Array.from({ length: ONBOARDING_INVITES_NEEDED }, (_, i) => (
          <span key={i} className={cn("size-2.5 rounded-full", i < joined ? "bg-emerald-600" : "bg-stone-200")} />
        ))}
      </span>
      <span>
        <strong className="font-semibold text-stone-900 tabular-nums">{joined}</strong> of {ONBOARDING_INVITES_NEEDED}{" "}
        joined through your link
      </span>
    </p>
  );
}

/** The community as the directory shows it, updating as the owner adds a description, icon and cover. */
function CommunityPreview({ community }: { community: CommunityView }) {
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
      <p className="border-b border-stone-100 px-4 py-2.5 text-xs font-semibold tracking-wide text-stone-600 uppercase">
        How members see it
      </p>
      <div className="relative aspect-[1084/576] bg-gradient-to-br from-brand-200 via-amber-100 to-stone-200">
        {community.cover_url && <CoverImage src={community.cover_url} />}
      </div>
      <div className="px-4 pb-4">
        <CommunityIcon src={community.icon_url} name={community.name} onCover />
        <p className="mt-2 font-bold text-stone-900">{community.name}</p>
        {community.tagline && <p className="text-sm text-stone-700">{community.tagline}</p>}
        <p
          className={cn(
            "mt-1.5 line-clamp-3 text-sm",
            community.description ? "text-stone-600" : "text-stone-500 italic",
          )}
        >
          {community.description || "No description yet."}
        </p>
        <div className="mt-3 flex items-center justify-between border-t border-stone-100 pt-3 text-sm">
          <span className="flex items-center gap-1.5 text-stone-600">
            <Users className="size-4" aria-hidden="true" />
            {formatCount(community.member_count)} {community.member_count === 1 ? "member" : "members"}
          </span>
          <span className="font-semibold text-stone-900">
            {priceText(community.type, community.price, community.currency)}
          </span>
        </div>
      </div>
    </div>
  );
}
