import { Link } from "react-router";
import { SEARCH_MESSAGES } from "#shared/search";
import type { SearchResponse } from "../api/search";
import { Avatar } from "#web/components/ui/avatar";
import { TimeAgo } from "#web/components/ui/time-ago";
import { HighlightedText } from "./highlighted-text";

/**
 * One result: its highlighted title and snippet, who wrote it and when, and (across communities)
 * where. The whole card opens the server's href: the post at the comment, the lesson, the profile.
 */
type SearchResult = SearchResponse["groups"][number]["results"][number];

export function SearchResultItem({ result, showCommunity }: { result: SearchResult; showCommunity: boolean }) {
  const author = result.author;
  const name = author ? author.full_name || author.username : null;
  return (
    <li className="group relative rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 transition-shadow hover:shadow-md hover:ring-stone-300">
      {showCommunity && (
        <p className="mb-1 truncate text-xs text-stone-600">
          in <span className="font-semibold text-brand-800">{result.community.name}</span>
        </p>
      )}
      <p className="flex items-start gap-2">
        <Link
          to={result.href}
          className="min-w-0 font-semibold break-words text-stone-900 after:absolute after:inset-0 after:rounded-2xl after:content-[''] group-hover:text-brand-800 focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-700"
        >
          <HighlightedText value={result.title} />
        </Link>
        {result.locked && (
          <span className="mt-0.5 shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700 ring-1 ring-stone-200">
            {SEARCH_MESSAGES.locked}
          </span>
        )}
      </p>
      {result.snippet.text && !result.title.text.startsWith(result.snippet.text.replace(/…$/, "")) && (
        <p className="mt-1 line-clamp-3 text-sm leading-relaxed break-words whitespace-pre-line text-stone-700">
          <HighlightedText value={result.snippet} />
        </p>
      )}
      {(name || result.created_at) && (
        <p className="mt-2.5 flex min-w-0 items-center gap-2 text-xs text-stone-600">
          {author && name && (
            <>
              <Avatar src={author.avatar_url} name={name} size="sm" className="size-6 text-[0.625rem]" />
              <span className="truncate font-medium text-stone-800">{name}</span>
            </>
          )}
          {name && result.created_at && <span aria-hidden="true">·</span>}
          {result.created_at && <TimeAgo date={result.created_at} className="shrink-0" />}
        </p>
      )}
    </li>
  );
}
