import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateMessages, type MessageDto, patchConversationMessages } from "./message-keys";
import { request } from "./request";

export const editMessage = (id: string, body: string) =>
  request<MessageDto>("PATCH", `/api/messages/${encodeURIComponent(id)}`, { body });

export const deleteMessage = (id: string) => request<unknown>("DELETE", `/api/messages/${encodeURIComponent(id)}`);

/** Edits one's own message; the change shows at once and the conversation is read again. */
export function useEditMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) => editMessage(id, body),
    onSuccess: (_, { id, body }) =>
      patchConversationMessages(queryClient, conversationId, (m) =>
        m.id === id ? { ...m, body, edited_at: new Date().toISOString() } : m,
      ),
    onSettled: () => invalidateMessages(queryClient),
  });
}

export function useDeleteMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMessage(id),
    onSuccess: (_, id) =>
      patchConversationMessages(queryClient, conversationId, (m) =>
        m.id === id ? { ...m, body: "", image_url: null, deleted: true } : m,
      ),
    onSettled: () => invalidateMessages(queryClient),
  });
}
