import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { type ConversationPages, invalidateMessages, messageQueryKeys } from "./message-keys";

export type SendInput = { body: string; image_key?: string };

export const sendMessage = (conversationId: string, input: SendInput) =>
  unwrap(api.POST("/api/conversations/{id}/messages", { params: { path: { id: conversationId } }, body: input }));

/** Sends a message: it shows at once at the end of the conversation, then everything is read again. */
export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendInput) => sendMessage(conversationId, input),
    onSuccess: (message) =>
      queryClient.setQueryData<ConversationPages>(messageQueryKeys.conversation(conversationId), (data) => {
        if (!data?.pages.length || data.pages[0].messages.some((m) => m.id === message.id)) return data;
        const [first, ...rest] = data.pages;
        return { ...data, pages: [{ ...first, messages: [message, ...first.messages] }, ...rest] };
      }),
    onSettled: () => invalidateMessages(queryClient),
  });
}
