import { CalendarDays, ExternalLink, Globe, Link2, Mail, MapPin, Pencil } from "lucide-react";
import type { ReactNode } from "react";
import { NotFoundView } from "#web/components/not-found-view";
import { ErrorFallback } from "#web/components/error-fallback";
import { Avatar } from "#web/components/ui/avatar";
import { LevelAvatar } from "#web/features/levels";
import { MessageButton } from "#web/features/messages";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { ApiError } from "#web/lib/api";
import { openEditProfile } from "#web/lib/edit-profile-events";
import { useMe } from "#web/lib/session";
import { type PublicProfile, usePublicProfile } from "../api/get-public-profile";
import { LoadingRegion } from "#web/components/ui/load-states";
import { ReportButton } from "#web/features/reports";

/** Only http(s) addresses become links; anything else is not shown. */
function safeHttpUrl(value: string): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

function displayUrl(url: URL): string {
  const text = (url.host + url.pathname).replace(/^www\./, "").replace(/\/$/, "");
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const LINKS: Array<{ key: keyof PublicProfile; label: string; icon: typeof Globe }> = [
  { key: "website_url", label: "Website", icon: Globe },
  { key: "twitter_url", label: "Twitter", icon: Link2 },
  { key: "facebook_url", label: "Facebook", icon: Link2 },
  { key: "instagram_url", label: "Instagram", icon: Link2 },
  { key: "linkedin_url", label: "LinkedIn", icon: Link2 },
];

const joinedFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" });

export function PublicProfilePage({ username }: { username: string }) {
  const profile = usePublicProfile(username);
  const me = useMe();

  if (profile.isPending) return <ProfileSkeleton />;
  if (profile.isError) {
    if (profile.error instanceof ApiError && profile.error.status === 404) {
      return (
        <NotFoundView title="Profile not found" body={`There is no one on Hearth with the username @${username}.`} />
      );
    }
    return <ErrorFallback />;
  }

  const p = profile.data;
  const isOwn = me.data?.profile?.username === p.username;
  // A profile is reported to the moderators of a community the viewer shares with the person.
  const sharedCommunity = me.data?.user && !isOwn ? p.levels[0] : undefined;
  const links = LINKS.map((link) => ({ ...link, url: safeHttpUrl(String(p[link.key] ?? "")) })).filter(
    (link): link is typeof link & { url: URL } => link.url !== null,
  );

  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <title>{`${p.full_name || p.username} (@${p.username}) · Hearth`}</title>
      <article className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
        <div className="h-32 bg-gradient-to-br from-brand-300 via-amber-200 to-rose-200 sm:h-40" aria-hidden="true" />
        <div className="px-6 pb-8 sm:px-8">
          <div className="-mt-14 flex items-end justify-between gap-4 sm:-mt-16">
            <Avatar src={p.avatar_url} name={p.full_name || p.username} size="xl" className="ring-4 ring-white" />
            {isOwn && (
              <Button variant="secondary" onClick={() => openEditProfile()}>
                <Pencil className="size-4" aria-hidden="true" />
                Edit profile
              </Button>
            )}
            {me.data?.user && !isOwn && p.allow_messages && (
              <MessageButton
                userId={p.user_id}
                name={p.full_name || p.username}
                variant="primary"
                className="ml-auto"
              />
            )}
            {sharedCommunity && (
              <ReportButton
                target="profile"
                target_id={p.user_id}
                community_id={sharedCommunity.community_id}
                label="Report profile"
              />
            )}
          </div>
          <h1 className="mt-4 text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            {p.full_name || p.username}
          </h1>
          <p className="text-stone-600">@{p.username}</p>
          {p.headline && <p className="mt-3 text-lg text-stone-800">{p.headline}</p>}

          <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm text-stone-600">
            {p.location && (
              <Meta icon={<MapPin className="size-4" aria-hidden="true" />}>
                <span className="sr-only">Location: </span>
                {p.location}
              </Meta>
            )}
            <Meta icon={<CalendarDays className="size-4" aria-hidden="true" />}>
              Joined {joinedFormat.format(new Date(p.joined_at))}
            </Meta>
            {p.email && (
              <Meta icon={<Mail className="size-4" aria-hidden="true" />}>
                <a href={`mailto:${p.email}`} className="font-medium text-brand-800 hover:underline">
                  {p.email}
                </a>
              </Meta>
            )}
          </ul>

          <section className="mt-8" aria-labelledby="about-heading">
            <h2 id="about-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
              About
            </h2>
            {p.bio ? (
              <p className="mt-2 leading-relaxed whitespace-pre-line text-stone-800">{p.bio}</p>
            ) : (
              <p className="mt-2 text-stone-600">{isOwn ? "You haven't written a bio yet." : "No bio yet."}</p>
            )}
          </section>

          {p.levels.length > 0 && (
            <section className="mt-8" aria-labelledby="levels-heading">
              <h2 id="levels-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
                Levels
              </h2>
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {p.levels.map((l) => (
                  <li
                    key={l.community_id}
                    className="flex items-center gap-3 rounded-xl border border-stone-200 px-4 py-3"
                  >
                    <LevelAvatar level={l.level} names={levelNamesOf(l)} size="sm">
                      <Avatar src={p.avatar_url} name={p.full_name || p.username} size="sm" />
                    </LevelAvatar>
                    <span className="min-w-0 flex-1">
                      <Link
                        to={`/community/${encodeURIComponent(l.slug)}`}
                        className="block truncate text-sm font-semibold text-stone-900 hover:underline"
                      >
                        {l.community_name}
                      </Link>
                      <span className="block truncate text-sm text-stone-600">
                        {l.level_name === `Level ${l.level}` ? l.level_name : `Level ${l.level} · ${l.level_name}`}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}

          {links.length > 0 && (
            <section className="mt-8" aria-labelledby="links-heading">
              <h2 id="links-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
                Links
              </h2>
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {links.map(({ key, label, icon: Icon, url }) => (
                  <li key={key}>
                    <a
                      href={url.href}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                      className="group flex items-center gap-3 rounded-xl border border-stone-200 px-4 py-3 transition-colors hover:border-brand-300 hover:bg-brand-50"
                    >
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-700 group-hover:bg-white">
                        <Icon className="size-4" aria-hidden="true" />
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-semibold text-stone-900">{label}</span>
                        <span className="block truncate text-sm text-stone-600">{displayUrl(url)}</span>
                      </span>
                      <ExternalLink className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
                      <span className="sr-only">(opens in a new tab)</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </article>
    </main>
  );
}

/** The badge's names for one community: only the level shown needs its name. */
function levelNamesOf(l: { level: number; level_name: string }): string[] {
  const names = Array.from({ length: l.level }, (_, i) => `Level ${i + 1}`);
  names[l.level - 1] = l.level_name;
  return names;
}

function Meta({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="inline-flex items-center gap-1.5">
      {icon}
      {children}
    </li>
  );
}

function ProfileSkeleton() {
  return (
    <LoadingRegion label="Loading profile" as="main" id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
        <div className="h-32 animate-pulse bg-stone-200 sm:h-40" />
        <div className="space-y-3 px-6 pb-8 sm:px-8">
          <div className="-mt-14 size-28 animate-pulse rounded-full bg-stone-200 ring-4 ring-white sm:-mt-16 sm:size-32" />
          <div className="h-7 w-48 animate-pulse rounded bg-stone-200" />
          <div className="h-4 w-24 animate-pulse rounded bg-stone-200" />
          <div className="h-4 w-full max-w-md animate-pulse rounded bg-stone-200" />
        </div>
      </div>
    </LoadingRegion>
  );
}
