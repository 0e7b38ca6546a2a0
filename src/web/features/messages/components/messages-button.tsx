import { Link } from "react-router";
import { badgeCount } from "#shared/format";
import { messagesHref } from "#shared/messaging";
import { useUnreadConversations } from "../api/get-unread";
import { MessageCircle } from "./icons";

/** The accessible name: the count is part of it, the badge is only seen. */
const label = (unread: number) => (unread > 0 ? `Messages, ${unread} unread` : "Messages");

/** The header's chat button (signed in only): a link to the inbox with the unread conversations' badge. */
export function MessagesButton() {
  const unread = useUnreadConversations().data ?? 0;
  return (
    <Link
      to={messagesHref()}
      aria-label={label(unread)}
      className="relative flex size-10 items-center justify-center rounded-full text-stone-700 transition-colors hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      <MessageCircle className="size-5" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute top-0.5 right-0.5 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-red-600 px-1 text-[0.6875rem] leading-none font-bold text-white ring-2 ring-white"
        >
          {badgeCount(unread)}
        </span>
      )}
    </Link>
  );
}
