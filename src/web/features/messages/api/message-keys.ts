import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { paths } from "#web/lib/api-types";

export type MessagePage = paths["/api/conversations/{id}"]["get"]["responses"][200]["content"]["application/json"];
export type ConversationDto = MessagePage["conversation"];
export type MessageDto = MessagePage["messages"][number];
export type ConversationPages = InfiniteData<MessagePage, string | null>;

/** Every messages query key is built here; all of them start with "messages". */
export const messageQueryKeys = {
  all: ["messages"] as const,
  /** The header's badge: conversations with unread messages. */
  unread: () => ["messages", "unread"] as const,
  inboxes: () => ["messages", "inbox"] as const,
  inbox: (q: string) => ["messages", "inbox", q] as const,
  conversations: () => ["messages", "conversation"] as const,
  conversation: (id: string) => ["messages", "conversation", id] as const,
  blocks: () => ["messages", "blocks"] as const,
};

/** A stream event or a change of ours: the inbox, the badge and open conversations are read again. */
export function invalidateMessages(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: messageQueryKeys.all });
}

/** Applies `update` to each loaded message of a conversation. */
export function patchConversationMessages(
  queryClient: QueryClient,
  conversationId: string,
  update: (message: MessageDto) => MessageDto,
) {
  queryClient.setQueryData<ConversationPages>(messageQueryKeys.conversation(conversationId), (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, messages: page.messages.map(update) })) } : data,
  );
}
