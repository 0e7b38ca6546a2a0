import { Link2Off, Lock, MailOpen, RotateCw, ShieldOff } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { toast } from "#web/lib/toast";
import { priceText } from "#shared/money";
import { formatCount } from "#shared/format";
import { MSG } from "#shared/messages";
import { Button, buttonClasses } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { ApiError, errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { CommunityCover, CommunityIcon } from "#web/features/communities";
import { useAcceptInvite } from "../api/accept-invite";
import { type InviteView, useInvite } from "../api/get-invite";

/** The plan chooser loads when a paid community's invitation is accepted. */
const PlanChooser = lazyPart("PlanChooser", () =>
  import("#web/features/billing/components/plan-chooser").then((m) => ({ default: m.PlanChooser })),
);

const communityPath = (slug: string) => `/community/${encodeURIComponent(slug)}`;

/** Same id: a second "already a member" (double effect, or the 409 after it) does not stack a second toast. */
const ALREADY_MEMBER_TOAST = "invite-already-member";

/** /invite/:inviteCode — what the link leads to, and joining through it (SPEC §2, §8). */
export function InvitePage({ inviteCode }: { inviteCode: string }) {
  const invite = useInvite(inviteCode);

  if (invite.isPending) return <InviteSkeleton />;

  if (invite.isError) {
    const { error } = invite;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      return (
        <InviteProblem icon={<Link2Off className="size-7" aria-hidden="true" />} title="Invalid Invitation">
          This invite link doesn't work. It may have been mistyped, or replaced by a newer link. Ask the person who
          shared it for a new one.
        </InviteProblem>
      );
    }
    if (error instanceof ApiError && error.status === 403) {
      return (
        <InviteProblem icon={<ShieldOff className="size-7" aria-hidden="true" />} title="Invitation unavailable">
          {MSG.invitesDisabled}
        </InviteProblem>
      );
    }
    return (
      <InviteProblem
        icon={<MailOpen className="size-7" aria-hidden="true" />}
        title="We couldn't open this invitation"
        action={
          <Button variant="secondary" loading={invite.isFetching} onClick={() => void invite.refetch()}>
            <RotateCw className="size-4" aria-hidden="true" />
            Try again
          </Button>
        }
      >
        {errorMessage(error, "Something went wrong while loading it. Please try again.")}
      </InviteProblem>
    );
  }

  return <InviteCard inviteCode={inviteCode} invite={invite.data} />;
}

function InviteCard({ inviteCode, invite }: { inviteCode: string; invite: InviteView }) {
  const { community, viewer_role: role } = invite;
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  const accept = useAcceptInvite();
  const signedIn = Boolean(me.data?.user);
  const paid = community.type === "paid" && community.price > 0;
  const [choosing, setChoosing] = useState(false);

  // Already in (SPEC §8: on an invite, "already a member" goes to the community).
  const alreadyMember = Boolean(role) && accept.isIdle;
  useEffect(() => {
    if (!alreadyMember) return;
    toast.info(MSG.alreadyMember, { id: ALREADY_MEMBER_TOAST });
    navigate(communityPath(community.slug), { replace: true });
  }, [alreadyMember, community.slug, navigate]);

  // On the way to the community: no flash of an invitation to a place one is already in.
  if (alreadyMember) return <InviteSkeleton />;

  const onAccept = () => {
    if (!signedIn) {
      // Back here after signing in, to accept.
      openAuthDialog({
        mode: "login",
        redirect: `${location.pathname}${location.search}`,
        message: `Log in to accept your invitation to ${community.name}.`,
      });
      return;
    }
    if (paid) setChoosing(true);
    else acceptNow();
  };

  const acceptNow = () =>
    accept.mutate(inviteCode, {
      onSuccess: ({ community: joined }) => {
        toast.success(`Welcome to ${community.name}!`);
        navigate(communityPath(joined.slug));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          toast.info(MSG.alreadyMember, { id: ALREADY_MEMBER_TOAST });
          navigate(communityPath(community.slug), { replace: true });
        } else if (error instanceof ApiError && error.status === 401) {
          openAuthDialog({ mode: "login", redirect: `${location.pathname}${location.search}` });
        } else if (error instanceof ApiError && error.status === 402) {
          setChoosing(true);
        }
      },
    });

  const acceptError =
    accept.error && !(accept.error instanceof ApiError && [401, 402, 409].includes(accept.error.status))
      ? errorMessage(accept.error, MSG.joinFailed, ["NOT_FOUND", "FORBIDDEN"])
      : null;

  return (
    <InviteFrame>
      <title>{`Join ${community.name} · Hearth`}</title>
      <article className="overflow-hidden rounded-3xl bg-white shadow-xl ring-1 ring-stone-900/5">
        <CommunityCover src={community.image_url ?? community.cover_url} seed={community.id} priority />
        <div className="px-6 pb-8 sm:px-10">
          <CommunityIcon src={community.icon_url} name={community.name} size="lg" onCover />
          <p className="mt-5 text-sm font-semibold tracking-wide text-brand-800 uppercase">You're invited to join</p>
          <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-balance break-words text-stone-900">
            {community.name}
          </h1>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <span
              className={
                paid
                  ? "rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800"
                  : "rounded-full bg-emerald-50 px-3 py-1 text-sm font-semibold text-emerald-800"
              }
            >
              {paid ? priceText(community.type, community.price, community.currency) : "Free"}
            </span>
            {community.visibility === "private" && (
              <span className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1 text-sm font-semibold text-stone-700">
                <Lock className="size-3.5" aria-hidden="true" />
                Private community
              </span>
            )}
          </div>
          {community.description && (
            <p className="mt-4 leading-relaxed break-words whitespace-pre-line text-stone-700">
              {community.description}
            </p>
          )}
          <dl className="mt-6 grid grid-cols-2 divide-x divide-stone-200 rounded-2xl bg-stone-50 py-4 ring-1 ring-stone-200/70">
            <Stat label={community.member_count === 1 ? "Member" : "Members"} value={community.member_count} />
            <Stat label={community.post_count === 1 ? "Post" : "Posts"} value={community.post_count} />
          </dl>
          {acceptError && (
            <FormMessage tone="error" className="mt-6">
              {acceptError}
            </FormMessage>
          )}
          <Button
            size="lg"
            className="mt-6 w-full"
            loading={accept.isPending || accept.isSuccess}
            disabled={me.isPending}
            onClick={onAccept}
          >
            Accept Invitation
          </Button>
          {choosing && (
            <Suspense>
              <PlanChooser
                community={community}
                inviteCode={inviteCode}
                onOpenChange={setChoosing}
                onJoinFree={acceptNow}
                joiningFree={accept.isPending}
              />
            </Suspense>
          )}
          <p className="mt-3 text-center text-sm text-stone-600">
            {signedIn
              ? paid
                ? "Choose a plan, then pay to join."
                : "You'll join as a member right away."
              : "You'll be asked to log in or sign up first."}
          </p>
        </div>
      </article>
    </InviteFrame>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col items-center px-4">
      <dt className="order-2 text-sm text-stone-600">{label}</dt>
      <dd className="order-1 text-2xl font-bold text-stone-900 tabular-nums">{formatCount(value)}</dd>
    </div>
  );
}

function InviteFrame({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="relative overflow-hidden">
      <div
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(44rem_24rem_at_85%_-10%,var(--color-brand-100),transparent),radial-gradient(36rem_22rem_at_0%_100%,#fef3c7,transparent)]"
        aria-hidden="true"
      />
      <div className="relative mx-auto max-w-xl px-4 py-10 sm:py-16">{children}</div>
    </main>
  );
}

function InviteProblem({
  icon,
  title,
  action,
  children,
}: {
  icon: ReactNode;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <InviteFrame>
      <title>{`${title} · Hearth`}</title>
      <div className="rounded-3xl bg-white px-6 py-12 text-center shadow-xl ring-1 ring-stone-900/5 sm:px-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {icon}
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{title}</h1>
        <p className="mx-auto mt-2 max-w-sm text-stone-600">{children}</p>
        <div className="mt-7 flex flex-wrap justify-center gap-3">
          {action}
          <Link to="/" className={buttonClasses({ variant: action ? "ghost" : "primary" })}>
            Browse Communities
          </Link>
        </div>
      </div>
    </InviteFrame>
  );
}

function InviteSkeleton() {
  return (
    <InviteFrame>
      <title>Invitation · Hearth</title>
      <div className="overflow-hidden rounded-3xl bg-white shadow-xl ring-1 ring-stone-900/5" aria-busy="true">
        <p role="status" className="sr-only">
          Loading invitation
        </p>
        <div className="aspect-[1084/576] animate-pulse bg-stone-200/70" aria-hidden="true" />
        <div className="px-6 pb-8 sm:px-10" aria-hidden="true">
          <div className="-mt-8 size-16 animate-pulse rounded-2xl bg-stone-300 ring-4 ring-white" />
          <div className="mt-6 h-3 w-32 animate-pulse rounded-full bg-stone-200" />
          <div className="mt-3 h-7 w-2/3 animate-pulse rounded-full bg-stone-200" />
          <div className="mt-5 h-3 w-full animate-pulse rounded-full bg-stone-100" />
          <div className="mt-2 h-3 w-5/6 animate-pulse rounded-full bg-stone-100" />
          <div className="mt-6 h-20 animate-pulse rounded-2xl bg-stone-100" />
          <div className="mt-6 h-12 animate-pulse rounded-xl bg-stone-200" />
        </div>
      </div>
    </InviteFrame>
  );
}
