import type { ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { ROLE_LABELS, isManager } from "#shared/roles";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { cn } from "#web/lib/cn";
import { isCommunity, type MyCommunity, useMyCommunities } from "../api/get-my-communities";
import { CommunityIcon } from "./community-images";

/*
 * Lucide's glyphs (check, chevron-down, compass, layout-grid, plus), drawn here rather than imported:
 * icons are grouped into chunks by the pages that share them (vite.config.ts, decision 0009), and
 * one more lazy chunk importing lucide icons regroups them so that a member's community page loads
 * about 3 KB of icons it never shows, over its budget.
 */
function Glyph({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
const Check = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M20 6 9 17l-5-5" />
  </Glyph>
);
const ChevronDown = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="m6 9 6 6 6-6" />
  </Glyph>
);
const Compass = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="m16.24 7.76-1.804 5.411a2 2 0 0 1-1.265 1.265L7.76 16.24l1.804-5.411a2 2 0 0 1 1.265-1.265z" />
    <circle cx="12" cy="12" r="10" />
  </Glyph>
);
const LayoutGrid = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <rect width="7" height="7" x="3" y="3" rx="1" />
    <rect width="7" height="7" x="14" y="3" rx="1" />
    <rect width="7" height="7" x="14" y="14" rx="1" />
    <rect width="7" height="7" x="3" y="14" rx="1" />
  </Glyph>
);
const Plus = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M5 12h14" />
    <path d="M12 5v14" />
  </Glyph>
);

/** The community a /community/:communityId/... address names (id, slug or custom slug), if any. */
function currentCommunityParam(pathname: string): string | undefined {
  const match = /^\/community\/([^/]+)/.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

const unreadText = (n: number) => (n === 1 ? "1 unread notification" : `${n} unread notifications`);

/**
 * The header's community switcher (signed in only): the person's communities with icon and name,
 * the ones they manage marked, the one on screen highlighted, unread activity marked; then Discover
 * communities and Create a community. A Radix menu: arrow keys, typeahead, Escape, and menu roles
 * for screen readers. Loaded after the page is idle (see header.tsx), not with the first page.
 */
export function CommunitySwitcher() {
  const mine = useMyCommunities();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const param = currentCommunityParam(pathname);
  const items = mine.data?.items ?? [];
  const current = items.find((c) => isCommunity(c, param));
  const unread = items.some((c) => c.unread_count > 0);
  const label = ["Your communities", current ? `, current: ${current.name}` : "", unread ? ", new activity" : ""].join(
    "",
  );

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        aria-label={label}
        className="relative flex h-10 max-w-[14rem] min-w-0 cursor-pointer items-center gap-2 rounded-xl px-2 text-sm font-semibold text-stone-800 transition-colors hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=open]:bg-stone-100"
      >
        {current ? (
          <CommunityIcon src={current.icon_url} name={current.name} size="sm" className="size-7" loading="eager" />
        ) : (
          <LayoutGrid className="size-5 shrink-0 text-stone-600" />
        )}
        <span className="hidden truncate md:inline">{current?.name ?? "Communities"}</span>
        <ChevronDown className="size-4 shrink-0 text-stone-500" />
        {unread && (
          <span
            aria-hidden="true"
            className="absolute top-1 left-1 size-2.5 rounded-full bg-red-600 ring-2 ring-white"
          />
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-[min(20rem,calc(100vw-1.5rem))]">
        <DropdownMenuLabel className="text-xs font-semibold tracking-wide text-stone-600 uppercase">
          Your communities
        </DropdownMenuLabel>
        {mine.isPending ? (
          <p className="px-3 py-2 text-sm text-stone-600">Loading…</p>
        ) : mine.isError ? (
          <DropdownMenuItem
            onSelect={(event) => {
              event.preventDefault();
              void mine.refetch();
            }}
          >
            Couldn&apos;t load your communities. Try again
          </DropdownMenuItem>
        ) : items.length === 0 ? (
          <p className="px-3 py-2 text-sm text-stone-600">You haven&apos;t joined a community yet.</p>
        ) : (
          <div className="max-h-[min(24rem,calc(100vh-14rem))] overflow-y-auto overscroll-contain">
            {items.map((c) => (
              <SwitcherItem key={c.id} community={c} current={c === current} />
            ))}
          </div>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate("/")}>
          <Compass />
          Discover communities
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate("/create")}>
          <Plus />
          Create a community
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function SwitcherItem({ community: c, current }: { community: MyCommunity; current: boolean }) {
  return (
    <DropdownMenuItem asChild className={cn(current && "bg-brand-50 text-brand-900")}>
      <Link to={`/community/${encodeURIComponent(c.slug)}`} aria-current={current ? "page" : undefined}>
        <CommunityIcon src={c.icon_url} name={c.name} size="sm" />
        <span className="min-w-0 flex-1 truncate">{c.name}</span>
        {isManager(c.role) && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-200">
            {ROLE_LABELS[c.role]}
          </span>
        )}
        {c.unread_count > 0 && (
          <span className="size-2.5 shrink-0 rounded-full bg-red-600">
            <span className="sr-only">, {unreadText(c.unread_count)}</span>
          </span>
        )}
        {current && <Check className="shrink-0 !text-brand-700" />}
      </Link>
    </DropdownMenuItem>
  );
}
