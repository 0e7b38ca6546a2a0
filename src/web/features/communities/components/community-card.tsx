import { Users } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { priceText } from "#shared/money";
import { formatCount } from "#shared/format";
import { cn } from "#web/lib/cn";
import type { DirectoryCard } from "../api/list-directory";
import { CommunityIcon } from "./community-images";

/** Warm stand-ins for a missing cover, picked by the community's id so a card keeps its colour. */
const COVER_GRADIENTS = [
  "from-brand-300 via-amber-200 to-rose-200",
  "from-amber-200 via-orange-200 to-brand-300",
  "from-rose-200 via-brand-200 to-amber-100",
  "from-stone-300 via-amber-100 to-brand-200",
  "from-orange-300 via-rose-200 to-amber-100",
  "from-amber-100 via-brand-200 to-rose-300",
];

export function coverGradient(seed: string): string {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) >>> 0;
  return COVER_GRADIENTS[hash % COVER_GRADIENTS.length];
}

/** The cover picture at its recommended 1084x576 proportions, or a gradient when there is none (or it fails). */
export function CommunityCover({
  src,
  seed,
  className,
  priority = false,
}: {
  src: string | null | undefined;
  seed: string;
  className?: string;
  /** Above the fold on arrival (the page's largest image): fetched first, never lazily. */
  priority?: boolean;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = Boolean(src) && failed !== src;
  return (
    <div className={cn("relative aspect-[1084/576] overflow-hidden bg-gradient-to-br", coverGradient(seed), className)}>
      {showImage && (
        <img
          src={src!}
          alt=""
          width={1084}
          height={576}
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : "auto"}
          decoding="async"
          className="size-full object-cover"
          onError={() => setFailed(src!)}
        />
      )}
    </div>
  );
}

export function memberCountText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "member" : "members"}`;
}

/** One community in the directory; the whole card is the link to its page. */
export function CommunityCard({ community, priority = false }: { community: DirectoryCard; priority?: boolean }) {
  const description = community.short_description || community.description || community.tagline;
  const price = priceText(community.type, community.price, community.currency);
  return (
    <article
      className={cn(
        "group relative flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200 transition",
        "hover:-translate-y-0.5 hover:shadow-lg hover:ring-stone-300 motion-reduce:hover:translate-y-0",
        "has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-brand-700",
      )}
    >
      <CommunityCover src={community.cover_url} seed={community.id} priority={priority} />
      <div className="flex flex-1 flex-col px-5 pb-5">
        <CommunityIcon src={community.icon_url} name={community.name} onCover />
        <h3 className="mt-3 line-clamp-1 text-lg leading-snug font-semibold text-stone-900">
          <Link
            to={`/community/${encodeURIComponent(community.slug)}`}
            className="focus-visible:outline-none after:absolute after:inset-0"
          >
            {community.name}
          </Link>
        </h3>
        <p className="mt-1 line-clamp-2 min-h-10 text-sm leading-5 text-stone-600">{description}</p>
        <div className="mt-auto flex items-center justify-between gap-3 pt-4 text-sm">
          <span className="inline-flex items-center gap-1.5 text-stone-600">
            <Users className="size-4 text-stone-500" aria-hidden="true" />
            {memberCountText(community.member_count)}
          </span>
          <span
            className={cn(
              "rounded-full px-2.5 py-0.5 text-xs font-semibold",
              price === "Free" ? "bg-emerald-50 text-emerald-800" : "bg-brand-50 text-brand-800",
            )}
          >
            {price}
          </span>
        </div>
      </div>
    </article>
  );
}

/** A card-shaped placeholder while the directory loads. */
export function CommunityCardSkeleton() {
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
      <div className="aspect-[1084/576] animate-pulse bg-stone-200/70" />
      <div className="flex flex-1 flex-col px-5 pb-5">
        <div className="-mt-6 size-12 animate-pulse rounded-xl bg-stone-300 ring-4 ring-white" />
        <div className="mt-4 h-4 w-2/3 animate-pulse rounded-full bg-stone-200" />
        <div className="mt-3 h-3 w-full animate-pulse rounded-full bg-stone-100" />
        <div className="mt-2 h-3 w-4/5 animate-pulse rounded-full bg-stone-100" />
        <div className="mt-6 flex items-center justify-between">
          <div className="h-3 w-24 animate-pulse rounded-full bg-stone-200" />
          <div className="h-5 w-14 animate-pulse rounded-full bg-stone-100" />
        </div>
      </div>
    </div>
  );
}
