import { MessageCircle, Search } from "./icons";
import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES, messagesHref } from "#shared/messaging";
import { EmptyState } from "#web/components/empty-state";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { TimeAgo } from "#web/components/ui/time-ago";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useDebouncedValue } from "#web/lib/use-debounced-value";
import { useInbox } from "../api/get-inbox";
import type { ConversationDto } from "../api/message-keys";

/** The inbox line under a name: who wrote last and the start of what they wrote. */
function preview(c: ConversationDto, meId: string): string {
  const m = c.last_message;
  if (!m) return "No messages yet";
  const text = m.deleted
    ? MESSAGING_MESSAGES.deletedMessage
    : m.body
      ? m.body.replace(/\s+/g, " ").slice(0, MESSAGE_LIMITS.previewChars)
      : "Sent an image";
  return m.sender_id === meId ? `You: ${text}` : text;
}

/** The inbox: conversations newest first, with a search by the other person's name. */
export function InboxList({ meId, activeId }: { meId: string; activeId?: string }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const q = useDebouncedValue(query.trim(), 300);
  const inbox = useInbox(q);
  const conversations = useMemo(() => inbox.data?.pages.flatMap((p) => p.conversations) ?? [], [inbox.data]);

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="border-b border-stone-200 px-4 pt-4 pb-3">
        <h1 className="text-xl font-bold tracking-tight text-stone-900">Messages</h1>
        <div className="relative mt-3">
          <label htmlFor={`${id}-search`} className="sr-only">
            Search conversations
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500"
            aria-hidden="true"
          />
          <input
            id={`${id}-search`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by name"
            maxLength={100}
            className={cn(inputClasses, "h-10 pl-9")}
          />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {inbox.isPending ? (
          <InboxSkeleton />
        ) : inbox.isError ? (
          <div className="p-4">
            <FormMessage tone="error">{errorMessage(inbox.error, "Couldn't load your messages.")}</FormMessage>
          </div>
        ) : conversations.length === 0 ? (
          q ? (
            <p className="px-4 py-10 text-center text-sm text-stone-600">No conversations match "{q}".</p>
          ) : (
            <EmptyState
              icon={MessageCircle}
              title={MESSAGING_MESSAGES.emptyInbox}
              className="m-4 border-none"
              headingLevel={2}
            >
              {MESSAGING_MESSAGES.emptyInboxHint}
            </EmptyState>
          )
        ) : (
          <ul aria-label="Conversations" className="divide-y divide-stone-100">
            {conversations.map((c) => (
              <InboxRow key={c.id} conversation={c} meId={meId} active={c.id === activeId} />
            ))}
          </ul>
        )}
        {inbox.hasNextPage && (
          <div className="flex justify-center p-3">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void inbox.fetchNextPage()}
              loading={inbox.isFetchingNextPage}
            >
              Show more conversations
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function InboxRow({ conversation: c, meId, active }: { conversation: ConversationDto; meId: string; active: boolean }) {
  const name = c.other.full_name || c.other.username;
  const unread = c.unread_count > 0;
  const when = c.last_message?.created_at ?? c.updated_at;
  return (
    <li>
      <Link
        to={messagesHref(c.id)}
        aria-current={active ? "page" : undefined}
        className={cn(
          "flex items-center gap-3 px-4 py-3 transition-colors hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700",
          active && "bg-brand-50 hover:bg-brand-50",
        )}
      >
        <Avatar src={c.other.avatar_url} name={name} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn("min-w-0 flex-1 truncate text-stone-900", unread ? "font-bold" : "font-semibold")}>
              {name}
            </span>
            <TimeAgo date={when} className="shrink-0 text-xs text-stone-600" />
          </span>
          <span className="flex items-center gap-2">
            <span
              className={cn(
                "min-w-0 flex-1 truncate text-sm",
                unread ? "font-semibold text-stone-900" : "text-stone-600",
              )}
            >
              {preview(c, meId)}
            </span>
            {unread && (
              <span className="size-2.5 shrink-0 rounded-full bg-brand-600">
                <span className="sr-only">
                  {c.unread_count === 1 ? "1 unread message" : `${c.unread_count} unread messages`}
                </span>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

function InboxSkeleton() {
  return (
    <LoadingRegion label="Loading conversations" className="divide-y divide-stone-100">
      {[0, 1, 2, 3, 4].map((n) => (
        <div key={n} className="flex items-center gap-3 px-4 py-3">
          <Bone className="size-10 rounded-full bg-stone-200" />
          <div className="flex-1 space-y-1.5">
            <Bone className="h-4 w-2/5 rounded bg-stone-200" />
            <Bone className="h-3 w-4/5 rounded bg-stone-200" />
          </div>
        </div>
      ))}
    </LoadingRegion>
  );
}
