import { Link } from "react-router";
import { ROLE_LABELS, isManager } from "#shared/roles";
import { useMyCommunities } from "../api/get-my-communities";
import { CommunityIcon } from "./community-images";

/**
 * "Your communities" on / for someone signed in: every community they belong to (private ones
 * too, which the directory never lists), one tap away. Nothing for visitors or before any join.
 */
export function YourCommunities() {
  const mine = useMyCommunities();
  if (!mine.isSuccess || mine.data.items.length === 0) return null;
  return (
    <section aria-labelledby="your-communities-heading" className="mx-auto max-w-6xl px-4 pt-8 sm:px-6 sm:pt-10">
      <h2 id="your-communities-heading" className="mb-4 text-xl font-bold tracking-tight text-stone-900">
        Your communities
      </h2>
      <ul className="-mx-1 flex snap-x gap-3 overflow-x-auto px-1 pb-2">
        {mine.data.items.map((c) => (
          <li key={c.id} className="w-64 shrink-0 snap-start">
            <Link
              to={`/community/${encodeURIComponent(c.slug)}`}
              className="flex h-full items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 transition hover:shadow-md hover:ring-brand-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <CommunityIcon src={c.icon_url} name={c.name} size="md" />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold text-stone-900">{c.name}</span>
                <span className="mt-0.5 flex items-center gap-1.5 text-xs text-stone-600">
                  <span className={isManager(c.role) ? "font-semibold text-amber-800" : undefined}>
                    {ROLE_LABELS[c.role]}
                  </span>
                  {c.visibility === "private" && <span>· Private</span>}
                  {c.unread_count > 0 && (
                    <>
                      <span className="size-2 rounded-full bg-red-600" aria-hidden="true" />
                      <span className="font-semibold text-red-700">{c.unread_count} new</span>
                    </>
                  )}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
