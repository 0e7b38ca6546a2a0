import { ArrowLeft, Ban, MessageCircle, MoreVertical, UserRound } from "./icons";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Link, useNavigate } from "react-router";
import { MESSAGING_MESSAGES, messagesHref } from "#shared/messaging";
import { EmptyState } from "#web/components/empty-state";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Avatar } from "#web/components/ui/avatar";
import { Button, buttonClasses } from "#web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { ApiError, errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useSetBlocked } from "../api/blocks";
import { useDeleteMessage, useEditMessage } from "../api/edit-message";
import { useConversation } from "../api/get-conversation";
import { useMarkRead } from "../api/mark-read";
import type { ConversationDto, MessageDto } from "../api/message-keys";
import { MessageComposer } from "./message-composer";
import { MessageItem } from "./message-item";
import { MessageReportDialog } from "./message-report-item";

/** A run of messages from one person closer than this shows one time, under its last message. */
const RUN_MS = 5 * 60 * 1000;
/** Within this distance of the end, the view follows new messages. */
const STICK_PX = 120;

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
};
const useTabVisible = () =>
  useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === "visible",
    () => false,
  );

const dayFormat = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric" });
const yearDayFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" });
const dayKey = (iso: string) => new Date(iso).toDateString();
function dayLabel(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (date.toDateString() === now.toDateString()) return "Today";
  if (date.toDateString() === yesterday.toDateString()) return "Yesterday";
  return date.getFullYear() === now.getFullYear() ? dayFormat.format(date) : yearDayFormat.format(date);
}

const nameOf = (c: ConversationDto) => c.other.full_name || c.other.username;

/**
 * One conversation: its history paged backwards ("Load earlier messages", or scrolling to the top),
 * sent and seen marks, edit and delete of one's own messages, block and unblock, and the composer.
 * Read marks are sent while the conversation is on screen and the tab is visible.
 */
export function ConversationView({ conversationId, meId }: { conversationId: string; meId: string }) {
  const query = useConversation(conversationId);
  const pages = query.data?.pages;
  const conversation = pages?.[0]?.conversation;
  const messages = useMemo(() => {
    const seen = new Set<string>();
    const list: MessageDto[] = [];
    for (const page of [...(pages ?? [])].reverse())
      for (const m of [...page.messages].reverse()) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        list.push(m);
      }
    return list;
  }, [pages]);

  if (query.isPending) return <ConversationSkeleton />;
  if (query.isError || !conversation) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 403);
    return (
      <div className="flex h-full items-center justify-center p-6">
        <EmptyState
          icon={MessageCircle}
          title={notFound ? MESSAGING_MESSAGES.conversationNotFound : "Couldn't load this conversation"}
          className="w-full max-w-md"
          action={
            notFound ? (
              <Link to={messagesHref()} className={buttonClasses({ variant: "secondary" })}>
                Back to messages
              </Link>
            ) : (
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Try again
              </Button>
            )
          }
        />
      </div>
    );
  }
  return (
    <LoadedConversation
      key={conversationId}
      conversation={conversation}
      messages={messages}
      meId={meId}
      hasOlder={Boolean(query.hasNextPage)}
      loadingOlder={query.isFetchingNextPage}
      loadOlder={() => void query.fetchNextPage()}
    />
  );
}

function LoadedConversation({
  conversation: c,
  messages,
  meId,
  hasOlder,
  loadingOlder,
  loadOlder,
}: {
  conversation: ConversationDto;
  messages: MessageDto[];
  meId: string;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}) {
  const name = nameOf(c);
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const stick = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [reportingId, setReportingId] = useState<string | null>(null);
  const edit = useEditMessage(c.id);
  const remove = useDeleteMessage(c.id);
  const block = useSetBlocked();
  const markRead = useMarkRead(c.id);
  const visible = useTabVisible();

  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;

  // Older messages keep what was on screen in place; new ones are followed while at the end.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (stick.current) el.scrollTop = el.scrollHeight;
  }, [firstId, lastId, messages.length]);

  // Images arriving change the height: stay at the end if we were there.
  useEffect(() => {
    const el = scroller.current;
    const content = list.current;
    if (!el || !content || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stick.current && !anchor.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  const older = () => {
    const el = scroller.current;
    if (!hasOlder || loadingOlder) return;
    if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    loadOlder();
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < 40) older();
  };

  // Read while open and seen: on arrival, on each new message, and when the tab comes back.
  const markedAt = useRef<string | null>(null);
  const { mutate: sendRead } = markRead;
  useEffect(() => {
    if (!visible || c.unread_count === 0 || !lastId) return;
    const key = `${lastId}:${c.unread_count}`;
    if (markedAt.current === key) return;
    markedAt.current = key;
    sendRead();
  }, [visible, c.unread_count, lastId, sendRead]);

  // Sent or seen: under my newest message, from how far they have read.
  const readIndex = c.other_last_read_id ? messages.findIndex((m) => m.id === c.other_last_read_id) : -1;
  let myLast = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1)
    if (messages[i].sender_id === meId) {
      myLast = i;
      break;
    }

  const setBlocked = (blocked: boolean) =>
    block.mutate(
      { userId: c.other.id, blocked },
      {
        onSuccess: () => toast.success(blocked ? MESSAGING_MESSAGES.blocked : MESSAGING_MESSAGES.unblocked),
        onError: (error) => toast.error(errorMessage(error, "Something went wrong. Please try again.")),
      },
    );

  const saveEdit = (id: string, body: string) =>
    edit.mutate(
      { id, body },
      {
        onSuccess: () => setEditingId(null),
        onError: (error) =>
          toast.error(errorMessage(error, "Couldn't save your changes.", ["VALIDATION", "FORBIDDEN", "CONFLICT"])),
      },
    );

  const confirmDelete = () => {
    if (!deletingId) return;
    remove.mutate(deletingId, {
      onError: (error) => toast.error(errorMessage(error, "Couldn't delete the message.", ["FORBIDDEN", "NOT_FOUND"])),
    });
    setDeletingId(null);
  };

  return (
    <section aria-labelledby="conversation-heading" className="flex h-full min-h-0 flex-col">
      <title>{`${name} · Messages · Hearth`}</title>
      <header className="flex items-center gap-3 border-b border-stone-200 bg-white px-3 py-2.5 sm:px-4">
        <Link
          to={messagesHref()}
          aria-label="Back to messages"
          className={`${buttonClasses({ variant: "ghost", size: "icon" })} md:hidden`}
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Link>
        <Avatar src={c.other.avatar_url} name={name} />
        <div className="min-w-0 flex-1">
          <h2 id="conversation-heading" className="truncate font-semibold text-stone-900">
            <Link to={`/u/${encodeURIComponent(c.other.username)}`} className="hover:underline">
              {name}
            </Link>
          </h2>
          <p className="truncate text-sm text-stone-600">
            @{c.other.username}
            {c.blocked && <span className="font-medium text-red-700"> · Blocked</span>}
          </p>
        </div>
        <ConversationMenu
          username={c.other.username}
          blocked={c.blocked}
          onBlock={() => setConfirmBlock(true)}
          onUnblock={() => setBlocked(false)}
        />
      </header>

      <div
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={`Messages with ${name}`}
        className="min-h-0 flex-1 overflow-y-auto bg-stone-50 px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700 sm:px-5"
      >
        {hasOlder && (
          <div className="mb-4 flex justify-center">
            <Button variant="secondary" size="sm" onClick={older} loading={loadingOlder}>
              Load earlier messages
            </Button>
          </div>
        )}
        {messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-3 text-center">
            <Avatar src={c.other.avatar_url} name={name} size="lg" />
            <p className="font-semibold text-stone-900">{name}</p>
            <p className="max-w-xs text-sm text-stone-600">
              {c.blocked
                ? `You blocked ${name}. Unblock them to see their messages and write again.`
                : c.can_send
                  ? `Say hello to ${name}. Only the two of you can read this conversation.`
                  : "No messages yet."}
            </p>
          </div>
        ) : (
          <ol ref={list} className="flex flex-col gap-1.5" aria-label="Messages">
            {messages.map((m, i) => {
              const prev = messages[i - 1];
              const next = messages[i + 1];
              const mine = m.sender_id === meId;
              const newDay = !prev || dayKey(prev.created_at) !== dayKey(m.created_at);
              const endsRun =
                !next ||
                next.sender_id !== m.sender_id ||
                new Date(next.created_at).getTime() - new Date(m.created_at).getTime() > RUN_MS;
              return (
                <Fragment key={m.id}>
                  {newDay && (
                    <li className="my-3 flex items-center gap-3 text-xs font-semibold text-stone-600">
                      <span className="h-px flex-1 bg-stone-200" />
                      {dayLabel(m.created_at)}
                      <span className="h-px flex-1 bg-stone-200" />
                    </li>
                  )}
                  <MessageItem
                    message={m}
                    mine={mine}
                    senderName={name}
                    showTime={endsRun}
                    status={i === myLast ? (readIndex >= myLast ? "Seen" : "Sent") : null}
                    editing={editingId === m.id}
                    onEdit={() => setEditingId(m.id)}
                    onCancelEdit={() => setEditingId(null)}
                    onSaveEdit={(body) => saveEdit(m.id, body)}
                    onDelete={() => setDeletingId(m.id)}
                    onReport={() => setReportingId(m.id)}
                    saving={edit.isPending}
                  />
                </Fragment>
              );
            })}
          </ol>
        )}
      </div>

      <MessageComposer
        conversationId={c.id}
        canSend={c.can_send}
        blocked={c.blocked}
        onUnblock={() => setBlocked(false)}
        onSent={() => {
          stick.current = true;
        }}
      />

      <MessageReportDialog messageId={reportingId} username={c.other.username} onClose={() => setReportingId(null)} />
      <ConfirmDialog
        open={deletingId !== null}
        onOpenChange={(open) => !open && setDeletingId(null)}
        title="Delete this message?"
        description={`It will show as "${MESSAGING_MESSAGES.deletedMessage}" for both of you.`}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
      <ConfirmDialog
        open={confirmBlock}
        onOpenChange={setConfirmBlock}
        title={`Block ${name}?`}
        description="They won't be able to message you and you won't see their new messages. You can unblock them here or in Edit profile → Privacy."
        confirmLabel="Block"
        destructive
        onConfirm={() => {
          setConfirmBlock(false);
          setBlocked(true);
        }}
      />
    </section>
  );
}

function ConversationMenu({
  username,
  blocked,
  onBlock,
  onUnblock,
}: {
  username: string;
  blocked: boolean;
  onBlock: () => void;
  onUnblock: () => void;
}) {
  const navigate = useNavigate();
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className={buttonClasses({ variant: "ghost", size: "icon" })}
        aria-label="Conversation options"
      >
        <MoreVertical className="size-5" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-48">
        <DropdownMenuItem onSelect={() => navigate(`/u/${encodeURIComponent(username)}`)}>
          <UserRound aria-hidden="true" />
          View profile
        </DropdownMenuItem>
        {blocked ? (
          <DropdownMenuItem onSelect={onUnblock}>
            <Ban aria-hidden="true" />
            Unblock
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem
            onSelect={onBlock}
            className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800 [&_svg]:text-red-600"
          >
            <Ban aria-hidden="true" />
            Block
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function ConversationSkeleton() {
  return (
    <LoadingRegion label="Loading conversation" className="flex h-full flex-col">
      <div className="flex items-center gap-3 border-b border-stone-200 px-4 py-3">
        <Bone className="size-10 rounded-full bg-stone-200" />
        <div className="space-y-1.5">
          <Bone className="h-4 w-32 rounded bg-stone-200" />
          <Bone className="h-3 w-20 rounded bg-stone-200" />
        </div>
      </div>
      <div className="flex-1 space-y-3 bg-stone-50 p-5">
        <Bone className="h-10 w-48 rounded-2xl bg-stone-200" />
        <Bone className="ml-auto h-10 w-56 rounded-2xl bg-stone-200" />
        <Bone className="h-16 w-64 rounded-2xl bg-stone-200" />
      </div>
    </LoadingRegion>
  );
}
