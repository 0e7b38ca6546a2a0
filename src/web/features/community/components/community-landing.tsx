import { lazyPart } from "#web/lib/lazy-part";
import {
  Bell,
  BookOpen,
  Crown,
  Globe,
  type LucideIcon,
  MessagesSquare,
  ScrollText,
  Sparkles,
  Trophy,
  Users,
} from "lucide-react";
import { type ReactNode, Suspense, useState } from "react";
import { Link } from "react-router";
import { categoryLabel } from "#shared/communities";
import { JOIN_MESSAGES } from "#shared/membership";
import { priceText } from "#shared/money";
import { formatCount } from "#shared/format";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { cn } from "#web/lib/cn";
import { type CommunityView, CommunityIcon, CoverImage } from "#web/features/communities";
import { CommunityFigures } from "./community-figures";
import { joinLabel, useJoinAction } from "#web/features/members";

/** The request form loads only for a community that takes requests. */
const JoinRequestPanel = lazyPart("JoinRequestPanel", () =>
  import("#web/features/membership/components/join-request-panel").then((m) => ({ default: m.JoinRequestPanel })),
);

/** The plan chooser loads when JOIN is pressed on a paid community. */
const PlanChooser = lazyPart("PlanChooser", () =>
  import("#web/features/billing/components/plan-chooser").then((m) => ({ default: m.PlanChooser })),
);

/** What a visitor or non-member sees of a public community (SPEC §2), with the JOIN button. */
export function CommunityLanding({ community: c }: { community: CommunityView }) {
  const join = useJoinAction(c);
  // By request: the questions first; once approved (a paid community's checkout next) JOIN as usual.
  const takesRequest = c.join_policy === "request" && c.viewer.join_request?.status !== "approved";
  const category = categoryLabel(c.category);
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-10">
      <title>{`${c.name} · Hearth`}</title>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10">
        <div className="min-w-0 lg:col-start-1 lg:row-start-1">
          <div className="flex items-center gap-4">
            <CommunityIcon src={c.icon_url} name={c.name} size="lg" className="shadow-sm" />
            <div className="min-w-0">
              <h1 className="text-2xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-3xl">
                {c.name}
              </h1>
              {c.tagline && <p className="mt-0.5 text-stone-600 sm:text-lg">{c.tagline}</p>}
            </div>
          </div>
          <MediaStrip community={c} />
        </div>

        <aside
          aria-label={`Join ${c.name}`}
          className="lg:sticky lg:top-24 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start"
        >
          <div className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200">
            <div className="p-6">
              {/* On small screens the page heading sits right above: no need to repeat it. */}
              <div className="flex items-center gap-3 max-lg:hidden">
                <CommunityIcon src={c.icon_url} name={c.name} size="md" />
                <div className="min-w-0">
                  <p className="truncate font-bold text-stone-900">{c.name}</p>
                  <p className="truncate text-sm text-stone-600">hearth/{c.custom_slug || c.slug}</p>
                </div>
              </div>
              {(c.short_description || c.tagline) && (
                <p className="text-sm leading-relaxed text-stone-700 lg:mt-4">{c.short_description || c.tagline}</p>
              )}
              <CommunityFigures community={c} className="mt-5" />
              {takesRequest ? (
                <div className="mt-6">
                  <Suspense fallback={<div className="h-12 animate-pulse rounded-xl bg-stone-200/70" />}>
                    <JoinRequestPanel
                      communityId={c.id}
                      communityName={c.name}
                      questions={c.request_questions}
                      askEmail={c.request_ask_email}
                      request={c.viewer.join_request}
                      signedIn={c.viewer.signed_in}
                      label={joinLabel(c)}
                    />
                  </Suspense>
                </div>
              ) : c.join_policy === "invite" ? (
                <FormMessage tone="info" className="mt-6">
                  {JOIN_MESSAGES.inviteOnly}
                </FormMessage>
              ) : (
                <Button size="lg" className="mt-6 w-full tracking-wide" onClick={join.run} loading={join.pending}>
                  {joinLabel(c)}
                </Button>
              )}
              {join.choosing && (
                <Suspense>
                  <PlanChooser
                    community={c}
                    onOpenChange={join.setChoosing}
                    onJoinFree={() => void join.joinFree()}
                    joiningFree={join.pending}
                  />
                </Suspense>
              )}
              {!takesRequest && c.join_policy !== "invite" && (
                <p className="mt-3 text-center text-xs text-stone-600">
                  {c.type === "paid" ? "Choose a plan. Cancel any time." : "Free to join. Leave any time."}
                </p>
              )}
            </div>
            {c.creator && (
              <div className="flex items-center gap-3 border-t border-stone-100 bg-stone-50/70 px-6 py-4">
                <Avatar src={c.creator.avatar_url} name={c.creator.full_name || c.creator.username} size="sm" />
                <p className="min-w-0 text-sm text-stone-600">
                  Created by{" "}
                  <Link
                    to={`/u/${encodeURIComponent(c.creator.username)}`}
                    className="font-semibold text-stone-900 hover:underline"
                  >
                    {c.creator.full_name || c.creator.username}
                  </Link>
                </p>
              </div>
            )}
          </div>
        </aside>

        <div className="min-w-0 space-y-8 lg:col-start-1 lg:row-start-2">
          <section aria-labelledby="landing-about">
            <h2 id="landing-about" className="text-xl font-bold tracking-tight text-stone-900">
              About this community
            </h2>
            <div className="mt-3 flex flex-wrap gap-2 text-sm">
              <Chip icon={Globe}>Public</Chip>
              {category && <Chip icon={Sparkles}>{category}</Chip>}
              <Chip icon={Crown}>{c.type === "paid" ? priceText(c.type, c.price, c.currency) : "Free"}</Chip>
            </div>
            <p className="mt-4 text-lg leading-relaxed whitespace-pre-line text-stone-800">
              {c.description || "The creator has not written a description yet."}
            </p>
          </section>

          <section aria-labelledby="landing-benefits">
            <h2 id="landing-benefits" className="text-xl font-bold tracking-tight text-stone-900">
              What you get
            </h2>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2">
              {benefitsOf(c).map(({ icon: Icon, title, body }) => (
                <li key={title} className="flex gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-800">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div className="min-w-0">
                    <p className="font-semibold text-stone-900">{title}</p>
                    <p className="mt-0.5 text-sm text-stone-600">{body}</p>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </main>
  );
}

type Benefit = { icon: LucideIcon; title: string; body: string };

/** Only what this community really offers, from its own settings and content. */
function benefitsOf(c: CommunityView): Benefit[] {
  const list: Benefit[] = [];
  const members = c.member_count;
  list.push({
    icon: Users,
    title: members > 1 ? `${formatCount(members)} members` : "An early circle",
    body: members > 1 ? "Meet people who care about the same things you do." : "Be among the first members to join.",
  });
  const categories = c.post_categories.map((p) => p.name);
  list.push({
    icon: MessagesSquare,
    title: "Conversations",
    body:
      categories.length > 0
        ? `Discussions in ${listText(categories)}.`
        : "Ask questions, share wins and learn from each other in one feed.",
  });
  if (c.show_classroom) {
    list.push({ icon: BookOpen, title: "Classroom", body: "Courses with modules and lessons, at your own pace." });
  }
  if (c.rules.length > 0) {
    list.push({
      icon: ScrollText,
      title: `${c.rules.length} community ${c.rules.length === 1 ? "rule" : "rules"}`,
      body: "Clear ground rules keep conversations kind and useful.",
    });
  }
  if (c.show_leaderboards) {
    list.push({ icon: Trophy, title: "Leaderboards", body: "See who helps the most and get recognized." });
  }
  list.push({ icon: Bell, title: "Live notifications", body: "Replies, likes and new posts the moment they happen." });
  return list;
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function Chip({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-white px-3 py-1 font-medium text-stone-700 ring-1 ring-stone-200">
      <Icon className="size-3.5 text-stone-500" aria-hidden="true" />
      {children}
    </span>
  );
}

type Visual = { key: "cover" | "icon"; label: string };

/**
 * The community's own visuals: its cover large, with a strip to switch to its icon when it has
 * both. Nothing here pretends to be a video.
 */
function MediaStrip({ community: c }: { community: CommunityView }) {
  const cover = c.cover_url || c.image_url;
  const visuals: Visual[] = [
    ...(cover ? [{ key: "cover" as const, label: "Cover image" }] : []),
    ...(c.icon_url ? [{ key: "icon" as const, label: "Community icon" }] : []),
  ];
  const [selected, setSelected] = useState<Visual["key"]>(visuals[0]?.key ?? "cover");
  const showing = visuals.find((v) => v.key === selected)?.key ?? "cover";

  return (
    <figure className="mt-6">
      <div className="relative aspect-[1084/576] overflow-hidden rounded-3xl bg-gradient-to-br from-brand-300 via-amber-200 to-rose-200 shadow-sm ring-1 ring-stone-900/5">
        {showing === "cover" && cover ? (
          // The page's largest image: fetched first, never lazily.
          <img
            src={cover}
            alt={`Cover image of ${c.name}`}
            width={1084}
            height={576}
            fetchPriority="high"
            className="size-full object-cover"
          />
        ) : (
          <div className="flex size-full items-center justify-center">
            <CommunityIcon
              src={c.icon_url}
              name={c.name}
              size="xl"
              className="size-32 shadow-xl ring-8 ring-white/60"
            />
          </div>
        )}
      </div>
      {visuals.length > 1 && (
        <div role="group" aria-label="Community images" className="mt-3 flex gap-3">
          {visuals.map((v) => (
            <button
              key={v.key}
              type="button"
              aria-pressed={showing === v.key}
              aria-label={v.label}
              onClick={() => setSelected(v.key)}
              className={cn(
                "relative h-16 w-28 cursor-pointer overflow-hidden rounded-xl ring-2 transition sm:h-20 sm:w-36",
                showing === v.key ? "ring-brand-600" : "opacity-80 ring-transparent hover:opacity-100",
              )}
            >
              {v.key === "cover" && cover ? (
                <CoverImage src={cover} />
              ) : (
                <span className="flex size-full items-center justify-center bg-gradient-to-br from-brand-200 to-amber-100">
                  <CommunityIcon src={c.icon_url} name={c.name} size="md" />
                </span>
              )}
            </button>
          ))}
        </div>
      )}
    </figure>
  );
}
